"""The words and exit codes by which solvers say SAT, UNSAT or UNKNOWN, per output format: the
SAT competition's 's' line and exit codes, XCSP3's 's' line, MiniZinc's closing markers."""

from __future__ import annotations

SAT, UNSAT, UNKNOWN = "SAT", "UNSAT", "UNKNOWN"

SAT_VERDICTS = {"SATISFIABLE": SAT, "SAT": SAT, "UNSATISFIABLE": UNSAT, "UNSAT": UNSAT,
                "UNKNOWN": UNKNOWN, "INDET": UNKNOWN, "INDETERMINATE": UNKNOWN}
EXIT_VERDICTS = {10: SAT, 20: UNSAT}  # the SAT competition's exit codes
XCSP3_VERDICTS = {"SATISFIABLE": SAT, "UNSATISFIABLE": UNSAT, "UNKNOWN": UNKNOWN,
                  "OPTIMUM FOUND": SAT}
MZN_ENDINGS = {"==========": (SAT, True),  # marker: (verdict, search exhausted)
               "=====UNSATISFIABLE=====": (UNSAT, True),
               "=====UNSATorUNBOUNDED=====": (UNSAT, True), "=====UNKNOWN=====": (UNKNOWN, False)}
MZN_FAILURES = ("=====ERROR=====", "=====UNBOUNDED=====")
