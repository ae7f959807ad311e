"""What the probe report scripts share (firstlaunch-report.py,
loadprobe-report.py, driverpages-report.py, timport-report.py): the command
line (the part's output and an optional run description for the header)
and the interval of a difference of medians."""
import argparse
import statistics


def parse(doc):
    """Parses sys.argv; `doc` (the script's docstring) is its help text."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("output", help="the part's output file")
    ap.add_argument("--meta", help='"date, commit, machine" for the header')
    return ap.parse_args()


def interval(a, b, rng, n=2000):
    """95 % bootstrap interval of median(b) - median(a)."""
    d = []
    for _ in range(n):
        ra = [rng.choice(a) for _ in a]
        rb = [rng.choice(b) for _ in b]
        d.append(statistics.median(rb) - statistics.median(ra))
    d.sort()
    return d[int(0.025 * n)], d[int(0.975 * n) - 1]
