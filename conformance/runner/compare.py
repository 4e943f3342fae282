"""Several runs' results.json side by side in one Markdown file (conformance/RESULTS.md).

Per property and library: how many of that library's scenarios pass, fail, are not applicable or errored; then the
real-machine scenarios every library ran, cell by cell; then each library's distinct failure reasons.
"""
import json
import os

from runner import results


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, "results.json")
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"conformance/run --compare: cannot read {path}: {e}")


def write(paths, md_path):
    runs = [load(p) for p in paths]
    names = [r["library"] for r in runs]
    props = list(dict.fromkeys(p for r in runs for p in r["properties"]))
    common = [s["name"] for s in runs[0]["scenarios"]
              if all(any(t["name"] == s["name"] and not t.get("bad") for t in r["scenarios"]) for r in runs)]

    md = ["# Conformance results, side by side", "",
          "Written by `conformance/run --compare OUT...` from `conformance/run --mpi strata|mpich|openmpi` runs; "
          "each run's own table (one column per scenario) is its OUT/results.md. Property definitions: "
          "[PROPERTIES.md](PROPERTIES.md).", "",
          "| Library | Version | Launcher | Scenarios | Date |", "| --- | --- | --- | --- | --- |"]
    for r in runs:
        kinds = [s.get("kind") for s in r["scenarios"]]
        version = " ".join((r.get("version") or "unknown").split())
        md.append(f"| {r['library']} | {_esc(version)} | {r['launcher']} | {len(kinds)} "
                  f"({kinds.count('simulated')} simulated, {kinds.count('real')} real) | {r['date'][:10]} |")

    md += ["", "## All scenarios", "",
           "Over each library's own scenarios (only Strata simulates machines, so it has many more).", "",
           "| Property | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    for prop in props:
        md.append(f"| `{prop}` | " + " | ".join(results.summary(results.count(_statuses(r, prop))) for r in runs)
                  + " |")

    if common:
        md += ["", "## The same real-machine scenarios", "",
               "Cells list the outcomes of " + ", ".join(f"`{n}`" for n in common) + ", in that order.", "",
               "| Property | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
        for prop in props:
            md.append(f"| `{prop}` | " + " | ".join(
                ", ".join(_short(r, prop, n) for n in common) for r in runs) + " |")

    # A column of n/a says nothing by itself: give the programs' reasons, grouped, where a library has no other
    # outcome for a property.
    md += ["", "## Not applicable anywhere", ""]
    lines = []
    for r in runs:
        for reason, which in _only_na(r, props).items():
            lines.append(f"- **{r['library']}**: {_esc(reason)}: " + ", ".join(f"`{p}`" for p in which))
    md += lines or ["None."]

    md += ["", "## Failures and errors", ""]
    any_reason = False
    for prop in props:
        lines = []
        for r in runs:
            for text, where in _reasons(r, prop).items():
                lines.append(f"- **{r['library']}**, {_where(where, r)}: {_esc(text)}")
        if lines:
            any_reason = True
            md += [f"### `{prop}`", ""] + lines + [""]
    if not any_reason:
        md.append("None.")
    with open(md_path, "w") as f:
        f.write("\n".join(md).rstrip("\n") + "\n")


def _statuses(run, prop):
    return [c["status"] for c in run["properties"].get(prop, {}).get("scenarios", {}).values()]


def _short(run, prop, scenario):
    cell = run["properties"].get(prop, {}).get("scenarios", {}).get(scenario)
    return results.SHORT[cell["status"]] if cell else "-"


def _only_na(run, props):
    """{reason: [properties]} for the properties that are n/a in every scenario of the run."""
    out = {}
    for prop in props:
        cells = list(run["properties"].get(prop, {}).get("scenarios", {}).values())
        if cells and all(c["status"] == "na" for c in cells):
            reasons = list(dict.fromkeys(c["reason"] or "no reason given" for c in cells))
            out.setdefault("; ".join(reasons[:2]) + ("; ..." if len(reasons) > 2 else ""), []).append(prop)
    return out


def _reasons(run, prop):
    """{"fail: CONTEXT: reason": [scenarios]} for the failed and errored cells of one property."""
    out = {}
    for name, cell in run["properties"].get(prop, {}).get("scenarios", {}).items():
        if cell["status"] in ("fail", "error"):
            out.setdefault(f"{results.SHORT[cell['status']]}: {results.cell_text(cell)}", []).append(name)
    return out


def _where(names, run, most=4):
    if len(names) == len(run["scenarios"]) > 1:
        return f"all {len(names)} scenarios"
    shown = ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")
    return f"{len(names)} scenario{'s' if len(names) > 1 else ''} ({shown})"


def _esc(text):
    return text.replace("|", "\\|")
