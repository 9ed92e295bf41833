"""Runs one test method of a unittest class, as CTest runs a Python test script:

    python3 script.py <method>

Exit status 0 when it passes, 1 when it fails, 77 (CTest's SKIP_RETURN_CODE) with the reason
printed as "SKIPPED: ..." when it skips. run_tests does the same for unittest.main's arguments
(several tests). Standard library only.
"""
import sys
import unittest

SKIP = 77


def run_one(case_class):
    name = sys.argv[1] if len(sys.argv) == 2 else ""
    if not name.startswith("test") or not hasattr(case_class, name):
        sys.exit(f"usage: {sys.argv[0]} <test method of {case_class.__name__}>")
    result = unittest.TextTestRunner(verbosity=2).run(case_class(name))
    if result.skipped and result.wasSuccessful():
        print(f"SKIPPED: {result.skipped[0][1]}")
        sys.exit(SKIP)
    sys.exit(0 if result.wasSuccessful() else 1)


def run_tests(argv=None, verbosity=1):
    """unittest.main on `argv` (sys.argv's arguments by default); exits 77 when every test it ran
    was skipped, printing each reason."""
    program = unittest.main(argv=[sys.argv[0]] + (sys.argv[1:] if argv is None else argv), exit=False,
                            verbosity=verbosity)
    result = program.result
    if result.testsRun and len(result.skipped) == result.testsRun and result.wasSuccessful():
        for reason in sorted({why for _, why in result.skipped}):
            print(f"SKIPPED: {reason}")
        sys.exit(SKIP)
    sys.exit(0 if result.wasSuccessful() else 1)
