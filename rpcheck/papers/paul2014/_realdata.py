"""The real-data path of the Paul et al. (2014) reproductions: rows of a registered set for one trial.

A trial on real data reads the set once per process (:func:`rpcheck.data_registry.load_source`), draws its own
rows with the trial's generator and splits them as the stand-in trial does, so the two share every later step.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ...data_registry import load_source
from ._common import stratified_split

__all__ = ["real_split"]


def real_split(src, n, rng, *, test_rows=0, positive=None, classes=False):
    """``(X, y, train, test)`` of one trial on the real :class:`~rpcheck.data_registry.DataSource` ``src``.

    ``n`` rows of the training file are drawn without replacement (all of them when ``n`` is at least its row
    count). ``test_rows`` = 0: a stratified 2/3 : 1/3 split of those rows (the stand-in trials' protocol);
    ``test_rows`` > 0: all ``n`` rows train and ``test_rows`` rows drawn without replacement from the set's test
    file are the test part (the paper's protocol: one training set, test sets drawn from the test file).
    ``classes``: keep the file's class labels (multi-class; returned as int64) instead of a binary task.
    """
    task = "regression" if classes else None  # "regression" keeps every finite label as it is in the file
    train = load_source(src, "train", positive=positive, task=task)
    X = sp.csr_matrix(train.X) if sp.issparse(train.X) else np.asarray(train.X, dtype=float)
    y = np.asarray(train.y, dtype=np.int64 if classes else float)
    if n < X.shape[0]:
        keep = np.sort(rng.choice(X.shape[0], size=n, replace=False))
        X, y = X[keep], y[keep]
    if not test_rows:
        tr, te = stratified_split(y, rng)
        return X, y, tr, te
    test = load_source(src, "test", positive=positive, task=task)
    Xt = sp.csr_matrix(test.X) if sp.issparse(test.X) else np.asarray(test.X, dtype=float)
    pick = np.sort(rng.choice(Xt.shape[0], size=min(test_rows, Xt.shape[0]), replace=False))
    stack = sp.vstack if sp.issparse(X) else np.vstack
    Xall = stack([X, Xt[pick]])
    Xall = Xall.tocsr() if sp.issparse(Xall) else Xall
    yall = np.concatenate([y, np.asarray(test.y, dtype=y.dtype)[pick]])
    return Xall, yall, np.arange(X.shape[0]), X.shape[0] + np.arange(pick.size)


_PAIRS: dict = {}


def techtc_pairs(src):
    """The TechTC-300 pair directories of a real source, sorted: the source itself when it is one pair (a
    directory holding vectors.dat, or a vectors.dat file), else every directory below it holding a vectors.dat."""
    from pathlib import Path

    from ...errors import RpcheckError

    root = Path(src.path("all"))
    if root not in _PAIRS:
        if root.is_file() or (root / "vectors.dat").is_file():
            pairs = (root,)
        else:
            pairs = tuple(sorted(p.parent for p in root.rglob("vectors.dat")))
        if not pairs:
            raise RpcheckError(
                f"data set 'techtc300': {str(root)!r} holds no TechTC pair (a directory with vectors.dat); extract "
                "the collection's archive there or pass --data techtc300=<directory of Exp_* pairs>."
            )
        _PAIRS[root] = pairs
    return _PAIRS[root]


def techtc_pair(src, rng):
    """One TechTC-300 pair of a real source, drawn uniformly with the trial's generator (independent draws with
    replacement over the collection: each trial is one pair, as each stand-in trial is one fresh pair)."""
    from ...datasets import load_techtc

    pairs = techtc_pairs(src)
    return load_techtc(pairs[int(rng.integers(len(pairs)))], check_shape=False)
