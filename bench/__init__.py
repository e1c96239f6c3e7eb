"""Performance figures for ``make bench`` (``python -m bench``): one table per area
(``engine``, ``lan``, ``app``, ``ssh``), every figure beside its reference and its goal.
The bench never fails on time; tests never assert on it."""
