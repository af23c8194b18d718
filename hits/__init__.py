"""hits: crowd tasks (HITs) for entity linking and name curation, with gold-item quality control.

A batch goes `made -> published -> collected -> reviewed -> sent -> aggregated`
(`hits.workflow`), each step stored before the outside world is told. Entity-linking rounds
write `links` (query -> KB id or NIL, per policy); name-curation rounds write `name_outcomes`
(A1/D1 from triage, A2/A3/D2 from the crowd, E from the expert) and queue disagreements in
`expert_queue`. `hits.workflow.run_round(store, config, "el" | "name", lang=..., backend=...)`
runs a whole round; its `pending` lists batches still waiting for people. xel reads what the
crowd decided through `hits.results` only, and hits reads xel's stages through their read
functions (`xel.queries.read_queries`, `xel.link.read_candidates`, `xel.triage.read_triage`,
`xel.corpus.document`).

Commands: `hits make`, `hits publish --backend mturk|local|simulated`, `hits collect`,
`hits review`, `hits serve`, `hits curate`, `hits simulate`, `hits aggregate`.
"""
