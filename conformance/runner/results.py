"""RESULT lines -> one cell per property and scenario -> results.md and results.json.

A cell: fail if any line of that property failed in that scenario (the first failure's context and reason are
kept, and the contexts of the others, so that every deviation shows), else pass if any passed, else n/a; or error (the program did not build, crashed or timed out). A run that
produced no cell for a property its program has elsewhere leaves that cell empty ("-").
"""
import json
import re

RESULT_LINE = re.compile(r"^RESULT (\S+) (pass|fail|na)(?: (\S+))?(?: (.*))?$")
RANK = {"error": 3, "fail": 2, "pass": 1, "na": 0}
SHORT = {"pass": "pass", "fail": "fail", "na": "n/a", "error": "error"}


def parse(stdout_text):
    """[(property, status, context, reason)] from a program's stdout; other lines are ignored."""
    out = []
    for line in stdout_text.splitlines():
        m = RESULT_LINE.match(line.rstrip("\r\n"))
        if m:
            out.append((m.group(1), m.group(2), m.group(3) or "", (m.group(4) or "").strip()))
    return out


def cells_from_lines(lines):
    """{property: cell} for one run: the worst status wins (fail > pass > na), and the first line of it; a fail
    cell also lists the contexts of the later failures ("also")."""
    cells = {}
    for prop, status, context, reason in lines:
        old = cells.get(prop)
        if old is None or RANK[status] > RANK[old["status"]]:
            cells[prop] = {"status": status, "context": context, "reason": reason, "also": []}
        elif status == "fail" and old["status"] == "fail":
            old["also"].append(context)
    return cells


class Table:
    """cells[property][scenario], the program each property belongs to, and run-wide failures per program."""

    def __init__(self, programs, scenario_names):
        self.programs = programs
        self.scenarios = list(scenario_names)
        self.cells = {}
        self.owner = {}            # property -> program
        self.whole_program = {}    # (scenario, program) -> cell for every property of that program
        self.whole_scenario = {}   # scenario -> cell for every property (bad scenario)

    def add_run(self, scenario, program, cells):
        for prop, cell in cells.items():
            self.owner.setdefault(prop, program)
            self.cells.setdefault(prop, {})[scenario] = cell

    def add_program_outcome(self, scenario, program, status, reason):
        self.whole_program[(scenario, program)] = {"status": status, "context": "", "reason": reason}

    def add_bad_scenario(self, scenario, reason):
        self.whole_scenario[scenario] = {"status": "error", "context": "", "reason": reason}

    def known(self, order):
        """Property ids in display order: `order` (PROPERTIES.md) first, then by program and first appearance.
        A program with no known property at all gets one row standing for all of them."""
        # An id no run printed belongs to the program of the ids sharing its first word ("GUIDED-"), or, when
        # that program printed nothing at all (did not build), to the one PROPERTIES.md files it under.
        by_prefix = {p.split("-")[0]: program for p, program in self.owner.items()}
        silent = set(self.programs) - set(self.owner.values())
        for prop, program in order.items():
            guess = by_prefix.get(prop.split("-")[0]) or (program if program in silent else None)
            if guess:
                self.owner.setdefault(prop, guess)
        rank = {p: i for i, p in enumerate(order)}
        props = sorted(self.owner, key=lambda p: (self.programs.index(self.owner[p]), rank.get(p, len(rank))))
        for program in self.programs:
            if program not in self.owner.values():
                self.owner[f"{program}:*"] = program
                props.append(f"{program}:*")
        return props

    def cell(self, prop, scenario):
        if scenario in self.whole_scenario:
            return self.whole_scenario[scenario]
        whole = self.whole_program.get((scenario, self.owner[prop]))
        return whole or self.cells.get(prop, {}).get(scenario)


def count(statuses):
    return {s: sum(1 for x in statuses if x == s) for s in ("pass", "fail", "na", "error")}


def summary(counts):
    """{"pass": 3, "fail": 1, ...} -> "3 pass, 1 fail"."""
    return ", ".join(f"{n} {SHORT[s]}" for s, n in counts.items() if n) or "-"


def cell_text(cell):
    text = f"{cell['context']}: {cell['reason']}" if cell["context"] else cell["reason"]
    also = cell.get("also") or []
    if also:
        text += f" (also failed: {', '.join(also[:16])}{', ...' if len(also) > 16 else ''})"
    return text


def write(table, order, meta, scenarios, md_path, json_path):
    """Write both files; returns {status: count} over all cells."""
    props = table.known(order)
    notes, counts = {}, {"pass": 0, "fail": 0, "na": 0, "error": 0}
    rows = []
    for prop in props:
        row = [f"`{prop}`"]
        for name in table.scenarios:
            cell = table.cell(prop, name)
            if cell is None:
                row.append("-")
                continue
            counts[cell["status"]] += 1
            text = SHORT[cell["status"]]
            # Failures, errors and unusual n/a (a program that does not build) go to numbered notes.
            if cell["status"] in ("fail", "error") or (cell["status"] == "na" and not cell["context"] and
                                                       cell["reason"]):
                key = f"{SHORT[cell['status']]}: {cell_text(cell)}"
                number = notes.setdefault(key, (len(notes) + 1, []))[0]
                notes[key][1].append(name)
                text += f" [{number}]"
            row.append(text)
        rows.append(row)

    md = [f"# Conformance results: {meta['library']}", ""]
    mutation = f", mutation `{meta['mutation']}`" if meta["mutation"] else ""
    md.append(f"{meta['version'] or 'version unknown'}. mpicc `{meta['mpicc']}`, mpiexec `{meta['mpiexec']}` "
              f"({meta['launcher']} launcher), timeout {meta['timeout']} s{mutation}; {meta['date']}, "
              f"{meta['seconds']} s.")
    md += ["", f"{len(table.scenarios)} scenarios; cells: {summary(counts)}.", ""]
    md.append("| Property | " + " | ".join(table.scenarios) + " |")
    md.append("| --- |" + " --- |" * len(table.scenarios))
    md += ["| " + " | ".join(row) + " |" for row in rows]
    if notes:
        md += ["", "Notes:", ""]
        for key, (number, where) in notes.items():
            md.append(f"{number}. {_md_escape(key)} ({_names(where)})")
    md += ["", "## Scenarios", "", "| Scenario | Kind | np | Machine (hwloc synthetic) | Nodes | Map by | Binding |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for s in scenarios:
        nodes = f"{s.get('nodes', '')}" + (f" under {_code(s['network'])}" if s.get("network") else "")
        md.append(f"| {s['name']} | {s.get('kind', '?')} | {s.get('np', '?')} | {_code(s.get('desc'))} | "
                  f"{nodes} | {s.get('map_by', '')} | {_binding(s)} |")
    with open(md_path, "w") as f:
        f.write("\n".join(md) + "\n")

    data = dict(meta, scenarios=scenarios, properties={
        prop: {"program": table.owner[prop],
               "scenarios": {name: table.cell(prop, name) for name in table.scenarios if table.cell(prop, name)}}
        for prop in props})
    with open(json_path, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    return counts


def _names(where, most=6):
    unique = list(dict.fromkeys(where))
    shown = ", ".join(unique[:most])
    return shown + (f" and {len(unique) - most} more" if len(unique) > most else "")


def _binding(s):
    binding = s.get("binding")
    if s.get("kind") == "real":
        return f"{binding}" + (", oversubscribed" if s.get("oversubscribe") else "")
    if s.get("cpusets") and (not isinstance(binding, str) or binding == "random"):
        return f"{'random ' if binding == 'random' else ''}`{';'.join(s['cpusets'])}`"
    return str(binding)


def _code(text):
    return f"`{text}`" if text else ""


def _md_escape(text):
    return text.replace("|", "\\|")
