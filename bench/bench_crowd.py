"""Crowd rounds of a built collection, rerun with the simulated crowd under a policy and a
population: what is kept, how much of it is right, and what it cost in judgments.

    python bench/bench_crowd.py configs/ntrex21.yaml --spammers 0.10 [--first-choice 0.1]
        [--policy paper] [--langs arb,deu] [--json OUT]

Works on a copy of the collection's store with every crowd table emptied, so the collection
itself is untouched. Entity linking is scored against `hits.simulated.truth`; names against
the simulated truth (the projection triage sent to curation, `hits.backends.simulated`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

from hits.reference import read_reference
from hits.store import NOT_A_PERSON, NOT_ENOUGH_INFO, open_tables
from hits.workflow import run_round
from xel.config import load_config
from xel.queries import read_queries
from xel.store import Store
from xel.triage import read_triage

# Children first (foreign keys).
CROWD_TABLES = ("hit_extensions", "hit_requests", "payments", "judgments", "hit_assignments",
                "hit_items", "hit_hits", "hit_batches", "worker_gold", "worker_actions", "links",
                "name_outcomes", "expert_queue", "expert_decisions", "page_views", "refusals")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config")
    parser.add_argument("--policy")
    parser.add_argument("--spammers", type=float)
    parser.add_argument("--first-choice", type=float, default=0.0)
    parser.add_argument("--colluders", type=float, default=0.0)
    parser.add_argument("--tiring", type=float, default=0.0)
    parser.add_argument("--fast", type=float, default=0.0)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--langs", default="", help="name rounds: comma-separated codes")
    parser.add_argument("--json")
    args = parser.parse_args()
    config = load_config(args.config)
    hits = config.hits
    sim = hits.simulated.model_copy(update={
        k: v for k, v in {"spammers": args.spammers, "first_choice": args.first_choice,
                          "colluders": args.colluders, "tiring": args.tiring,
                          "fast": args.fast, "seed": args.seed}.items() if v is not None})
    hits = hits.model_copy(update={"simulated": sim, **({"policy": args.policy}
                                                        if args.policy else {})})
    config = config.model_copy(update={"hits": hits})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "xel.sqlite"
        shutil.copy(config.resolve(config.store), path)
        store = open_tables(Store(path))
        with store.transaction():
            for table in CROWD_TABLES:
                store.execute(f"DELETE FROM {table}")
        figures = {"policy": hits.policy, "population": sim.model_dump(exclude={"truth"}),
                   "el": el_figures(store, config)}
        figures["names"] = {lang: name_figures(store, config, lang)
                            for lang in filter(None, args.langs.split(","))}
        store.close()
    print(json.dumps(figures, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


def el_figures(store: Store, config) -> dict[str, object]:  # type: ignore[no-untyped-def]
    run_round(store, config, "el")
    truth = read_reference(config.resolve(config.hits.simulated.truth))
    queries = [q.query_id for q in read_queries(store)]
    gold = {r[0] for r in store.query("SELECT query_id FROM links WHERE policy = 'gold'")}
    decided = {r[0]: r[1] for r in store.query(
        "SELECT query_id, label FROM links WHERE policy = ?", (config.hits.policy,))}
    kept = {q: decided.get(q) or "" for q in queries if q in decided or q in gold}
    for q in gold - set(decided):
        kept[q] = truth.get(q, "")
    links = {q: label for q, label in kept.items() if label not in (NOT_ENOUGH_INFO,
                                                                     NOT_A_PERSON)}
    asked = [q for q in queries if q not in gold]
    crowd = [q for q in asked if q in decided]
    right = sum(decided[q] == truth.get(q) for q in crowd)
    paid = store.scalar(
        "SELECT COUNT(*) FROM judgments j JOIN payments p USING (assignment_id) JOIN "
        "hit_batches b ON b.batch_id = j.batch_id WHERE b.kind = 'el' AND j.gold = 0 AND "
        "p.decision = 'approve'")
    every = store.scalar("SELECT COUNT(*) FROM judgments j JOIN hit_batches b USING "
                         "(batch_id) WHERE b.kind = 'el'")
    return {"queries": len(queries), "gold": len(gold), "asked": len(asked),
            "kept": len(links), "kept_share": len(links) / len(queries),
            "crowd_decided": len(crowd), "crowd_right": right,
            "crowd_accuracy": right / len(crowd) if crowd else None,
            "kept_accuracy": sum(links[q] == truth.get(q) for q in links) / len(links),
            "paid_non_gold_judgments": paid, "paid_per_query": paid / len(queries),
            "judgments_stored": every,
            "extensions": store.scalar("SELECT COUNT(*) FROM hit_extensions h JOIN hit_hits "
                                       "USING (hit_id) WHERE hit_id LIKE 'el-%'")}


def name_figures(store: Store, config, lang: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    run_round(store, config, "name", lang=lang)
    truth = {t.query_id: t.projection for t in read_triage(store, lang)
             if t.outcome == "curate"}
    outcomes = store.query("SELECT query_id, outcome, name FROM name_outcomes WHERE lang = ? "
                           "AND decided_by LIKE 'crowd:%'", (lang,))
    accepted = [(q, name) for q, outcome, name in outcomes if outcome in ("A2", "A3")]
    judgments = store.scalar(
        "SELECT COUNT(*) FROM judgments j JOIN hit_batches b USING (batch_id) WHERE "
        "b.kind = 'name' AND b.lang = ? AND j.gold = 0", (lang,))
    return {"curated": len(truth), "accepted": len(accepted),
            "accepted_right": sum(name == (truth.get(q) or "MISSING") for q, name in accepted),
            "discarded": sum(o == "D2" for _, o, _ in outcomes),
            "expert": store.scalar("SELECT COUNT(*) FROM expert_queue WHERE lang = ?", (lang,)),
            "judgments": judgments, "judgments_per_query": judgments / max(1, len(truth))}


if __name__ == "__main__":
    main()
