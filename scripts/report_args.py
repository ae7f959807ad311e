"""The command line the probe report scripts share (firstlaunch-report.py,
loadprobe-report.py, driverpages-report.py): the part's output file and an
optional run description for the header."""
import argparse


def parse(doc):
    """Parses sys.argv; `doc` (the script's docstring) is its help text."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("output", help="the part's output file")
    ap.add_argument("--meta", help='"date, commit, machine" for the header')
    return ap.parse_args()
