"""c-samples/differences.txt, read by the reports that compare NVIDIA's
runtime with ours program by program (gpu-report.py, corpus-report.py):
one line "<program>: <reason>" per known, explained difference."""
import os

DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "c-samples",
                       "differences.txt")


def load_reasons(path=DEFAULT):
    """program -> the listed reason it differs ({} when the file is missing)."""
    reasons = {}
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#") and ":" in line:
                    name, why = line.split(":", 1)
                    reasons[name.strip()] = why.strip()
    except OSError:
        pass
    return reasons
