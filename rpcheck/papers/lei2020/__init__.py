"""The theorems of Lei & Lan (2020), "Improved Subsampled Randomized Hadamard Transform for Linear SVM"
(AAAI 2020).

- ``rotation``, ``energy``, ``flattening``, ``jl``: claims 1, 11, 12, 13 (Gram preservation, rotated energy
  moments, flattening, the JL lemma)
- ``jl_sketches``: the JL lemma for the Achlioptas, count-sketch and SRHT matrices at r from bounds with explicit
  constants
- ``jl_shape``: the shape of the JL lemma's r = O(log n / eps^2) (the implied constant along n and eps)
- ``unbiased``, ``prop1``, ``replacement``, ``dkm``, ``nps_trace``: claims 2-5, 14, 15 (unbiasedness, Prop. 1
  squared/unsquared, replacement, DKM, nps trace)
- ``prop2``, ``topr``, ``supervised``, ``toy``: claims 6-8, 16 (Prop. 2, top-r not optimal, supervised score
  and rules, toy example)
- ``selection_dual``, ``dual_perturbation``: claims 9, 10 (no-rescale selection dual/margin bounds, dual
  perturbation; shared solver certificates in ``_svm_bounds``)
- ``comparison``, ``rsweep``, ``stability``: claims 17-25 on real data (mode "report"; shared data sets and sign
  tests in ``_empirical``); ``table2_prose``: the Sec. 4 sentences (claims 17-23) quoted verbatim, decided on the
  printed Table 2 (Welch tests from the printed summaries); ``table2``: Table 3's splits, Table 2's SRHT times
  and the Fig. 3 grid by exact arithmetic
- ``fig2``: Fig. 2, the proposed methods above the four data-independent ones at every r (sign tests)
- ``toy_accuracy``: claim 16, SRHT accuracy on the toy data; exact chance law given the useless pick
- ``dlss``: Table 2's DLSS row (deterministic leverage score sampling, rank k swept) beside PCA and the RPs
- ``timing``: Sec. 4 running-time sentences, projection time ratios on the paper's shapes (sign tests)
- ``sparse_scale``: SE + ISRHT (r' = 2r) at the rcv1-binary size on a stand-in (memory model, Table 2 rows)
- ``sparse_baselines``: Table 2's PCA and DLSS rows on the sparse sets' stand-ins (X never densified)

Registered through the ``rpcheck.theorems`` entry point of the same name (pyproject.toml): loading it
imports every public module of this package, and each theorem module registers its Theorem(s) on import.
"""
