"""Gold-anchored Dawid-Skene: worker skills learned with known answers as observed truth.

A one-coin Dawid-Skene model (each worker is right with probability `skill`, and a wrong
answer falls on any other option alike) fitted by EM, where

- known-answer (gold) tasks are clamped to their truth, so they anchor every worker's skill;
- each skill is the posterior mean under a Beta(`prior_right`, `prior_wrong`) prior, so two
  right gold answers do not make a worker perfect (4+2 of 4+1+2: 86%), and a worker seen
  on few items stays near the prior rather than being inverted (one-coin DS without a
  prior can learn a skill under chance on small sets);
- the options of a task are the answers given to it plus what nobody answered: for a closed
  label set the labels seen anywhere (with a learned class prior), for an open set (a
  curation task's free-text names) at least `open_options` (a wrong copy of a name can be any
  of the sentence's other words and spans, so two workers rarely write the same wrong one).
  So a name two workers copied alike is weighed against the chance that both are wrong.

With `confusion="both"` (closed label sets) a task's posterior for a label is the smaller of
the one-coin model's and the confusion-matrix model's: a decision has to hold under either
view of the workers. On real answer sets each model alone is overconfident, and where they
differ one misreads the workers (one-coin misses errors that lean to one class, as in product
matching; a matrix learned from a worker's few answers is noisy).

crowd-kit's `DawidSkene` takes gold labels too, but applies its `initial_error` prior only
before the first M-step and needs a closed label set; this is the same algorithm shaped like
crowd-kit's aggregators (`fit(data, true_labels)`, `probas_`, `skills_`) with both fixed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

_EPS = 1e-9


@dataclass
class GoldDawidSkene:
    """EM for the one-coin model with Beta skill priors, gold clamping and open label sets."""

    prior_right: float = 4.0
    prior_wrong: float = 1.0
    open_labels: bool = False
    open_options: int = 10
    # Closed label sets only: "one-coin" (one accuracy per worker), "full" (a confusion matrix
    # per worker, Dawid and Skene's model, each row with a Dirichlet prior of the same
    # strength) or "both" (the smaller posterior of the two).
    confusion: str = "one-coin"
    n_iter: int = 100
    tol: float = 1e-6
    # Fitted: per task the best label and its posterior; per worker the MAP skill and the
    # (soft) counts it rests on, gold and non-gold separately.
    labels_: pd.DataFrame = field(init=False, repr=False)
    skills_: pd.DataFrame = field(init=False, repr=False)

    def fit(self, data: pd.DataFrame, true_labels: Mapping[str, str] | None = None
            ) -> GoldDawidSkene:
        """`data`: task, worker, label rows (gold tasks included); `true_labels`: task ->
        known answer of the gold tasks."""
        gold = dict(true_labels or {})
        data = data[["task", "worker", "label"]].astype(str)
        tasks, t_idx = np.unique(data["task"].to_numpy(), return_inverse=True)
        workers, w_idx = np.unique(data["worker"].to_numpy(), return_inverse=True)
        pairs = pd.MultiIndex.from_arrays([data["task"], data["label"]]).unique()
        # Gold truths nobody gave are options too (every answer to that task is then wrong).
        known = set(tasks)
        extra = [(t, a) for t, a in gold.items() if t in known and (t, a) not in pairs]
        pairs = pairs.append(pd.MultiIndex.from_tuples(extra)) if extra else pairs
        p_task = np.searchsorted(tasks, pairs.get_level_values(0).to_numpy())
        p_label = pairs.get_level_values(1).to_numpy()
        j_pair = pairs.get_indexer(pd.MultiIndex.from_arrays([data["task"], data["label"]]))
        classes, p_class = np.unique(p_label, return_inverse=True)
        n_tasks, n_pairs = len(tasks), len(pairs)
        seen = np.bincount(p_task, minlength=n_tasks).astype(float)
        # Open sets: the answers given, or something nobody wrote; closed: every label.
        options = (np.maximum(seen + 1.0, float(self.open_options)) if self.open_labels
                   else np.maximum(seen, float(len(classes))))
        wrong_share = 1.0 / np.maximum(options - 1.0, 1.0)
        # Gold: a fixed posterior on the known answer's option.
        gold_pair = np.full(n_tasks, -1)
        for i, (t, a) in enumerate(zip(pairs.get_level_values(0), p_label, strict=True)):
            if gold.get(t) == a:
                gold_pair[np.searchsorted(tasks, t)] = i
        is_gold = gold_pair >= 0
        # Start from each worker's prior mean, improved by gold where there is some.
        skill = np.full(len(workers), self.prior_right / (self.prior_right + self.prior_wrong))
        class_prior = np.full(len(classes), 1.0 / len(classes))
        last = -np.inf
        post = np.zeros(n_pairs)
        unseen = np.zeros(n_tasks)
        for _ in range(self.n_iter):
            log_right = np.log(skill[w_idx] + _EPS)
            log_wrong = np.log((1.0 - skill[w_idx]) * wrong_share[t_idx] + _EPS)
            base = np.bincount(t_idx, weights=log_wrong, minlength=n_tasks)
            gain = np.bincount(j_pair, weights=log_right - log_wrong, minlength=n_pairs)
            if self.open_labels:
                # Uniform over the options: the answers seen, and the rest as one.
                prior = np.log(1.0 / options)
                score = base[p_task] + gain + prior[p_task]
                rest = base + np.log((options - seen) / options)
            else:
                score = base[p_task] + gain + np.log(class_prior[p_class] + _EPS)
                seen_mass = np.bincount(p_task, weights=class_prior[p_class], minlength=n_tasks)
                rest = base + np.log(np.clip(1.0 - seen_mass, _EPS, None))
            top = np.maximum(rest, _max_by(score, p_task, n_tasks))
            expo = np.exp(score - top[p_task])
            norm = np.bincount(p_task, weights=expo, minlength=n_tasks) + np.exp(rest - top)
            post = expo / norm[p_task]
            unseen = np.exp(rest - top) / norm
            post[is_gold[p_task]] = 0.0
            post[gold_pair[is_gold]] = 1.0
            unseen[is_gold] = 0.0
            # M-step: skills as posterior means (a MAP estimate under a prior with
            # prior_wrong = 1 would make every flawless worker perfect), and the class prior.
            right = np.bincount(w_idx, weights=post[j_pair], minlength=len(workers))
            asked = np.bincount(w_idx, minlength=len(workers)).astype(float)
            skill = (self.prior_right + right) / (self.prior_right + self.prior_wrong + asked)
            skill = np.clip(skill, _EPS, 1.0 - _EPS)
            if not self.open_labels:
                mass = np.bincount(p_class, weights=post, minlength=len(classes)) + 1.0
                class_prior = mass / mass.sum()
            loglik = float(np.log(norm).sum() + top.sum())
            if abs(loglik - last) < self.tol * max(1.0, abs(loglik)):
                break
            last = loglik
        if self.confusion != "one-coin" and not self.open_labels:
            full = self._confusion(t_idx, w_idx, p_class[j_pair], len(classes), gold_pair,
                                   p_task, p_class, post)[p_task, p_class]
            if self.confusion == "both":
                post = np.minimum(post, full)
            else:  # every label is an option of the full model: nothing is unseen
                post, unseen = full, np.zeros(n_tasks)
        best = _argmax_by(post, p_task, n_tasks)
        support = np.where(best >= 0, post[np.maximum(best, 0)], 0.0)
        self.labels_ = pd.DataFrame({
            "task": tasks, "label": np.where(best >= 0, p_label[np.maximum(best, 0)], ""),
            "posterior": support, "unseen": unseen, "gold": is_gold,
            "judgments": np.bincount(t_idx, minlength=n_tasks),
        })
        j_gold = is_gold[t_idx]
        self.skills_ = pd.DataFrame({
            "worker": workers, "skill": skill,
            "gold_items": np.bincount(w_idx, weights=j_gold, minlength=len(workers)),
            "gold_right": np.bincount(w_idx, weights=j_gold * post[j_pair],
                                      minlength=len(workers)),
            "items": np.bincount(w_idx, weights=~j_gold, minlength=len(workers)),
            "agreed": np.bincount(w_idx, weights=(~j_gold) * post[j_pair],
                                  minlength=len(workers)),
        })
        return self

    def _confusion(self, t_idx: np.ndarray, w_idx: np.ndarray, labels: np.ndarray, k: int,
                   gold_pair: np.ndarray, p_task: np.ndarray, p_class: np.ndarray,
                   start: np.ndarray) -> np.ndarray:
        """EM over per-worker confusion matrices, started from the one-coin posteriors
        (`start`, per task and label pair); returns the task x class posteriors."""
        n_tasks, n_workers = len(gold_pair), int(w_idx.max()) + 1
        post = np.full((n_tasks, k), _EPS)
        post[p_task, p_class] += start
        post /= post.sum(axis=1, keepdims=True)
        is_gold = gold_pair >= 0
        prior = np.full((k, k), self.prior_wrong / max(k - 1, 1))
        np.fill_diagonal(prior, self.prior_right)
        last = -np.inf
        for _ in range(self.n_iter):
            counts = np.zeros((n_workers, k, k))
            for c in range(k):
                np.add.at(counts[:, c, :], (w_idx, labels), post[t_idx, c])
            errors = np.log((counts + prior) / (counts + prior).sum(axis=2, keepdims=True))
            class_prior = (post.sum(axis=0) + 1.0) / (n_tasks + k)
            logp = np.tile(np.log(class_prior), (n_tasks, 1))
            for c in range(k):
                np.add.at(logp[:, c], t_idx, errors[w_idx, c, labels])
            top = logp.max(axis=1, keepdims=True)
            norm = np.exp(logp - top).sum(axis=1, keepdims=True)
            post = np.exp(logp - top) / norm
            post[is_gold] = 0.0
            post[is_gold, p_class[gold_pair[is_gold]]] = 1.0
            loglik = float((np.log(norm) + top).sum())
            if abs(loglik - last) < self.tol * max(1.0, abs(loglik)):
                break
            last = loglik
        return post


def _max_by(values: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
    out = np.full(n, -np.inf)
    np.maximum.at(out, groups, values)
    return out


def _argmax_by(values: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
    """Per group the index of its largest value (-1 for an empty group); ties: first."""
    order = np.lexsort((np.arange(len(values)), -values, groups))
    first = np.full(n, -1)
    g = groups[order]
    starts = np.r_[True, g[1:] != g[:-1]] if len(g) else np.array([], dtype=bool)
    first[g[starts]] = order[starts]
    return first
