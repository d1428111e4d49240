"""Every registered game's browser view module provides the interface the shell uses
(docs/client.md, "A game's view module"; issue 27's CI item): checked under Node, from the
module itself, so a view that lacks an export, or has one of the wrong kind, fails here
and not in a player's browser.

The interface is written once, in ``INTERFACE`` below; two ties keep it true: the docs'
table names exactly these exports, and every ``ui.<name>`` the shell (main.js, menu.js)
reads is one of them. Skipped without node (a failure under CI=true).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Dict, Tuple

from node_support import JS, node_json, require_node
from server_support import welcome_of

require_node()  # skips the module without node (fails under CI=true)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "client.md"

# name: (kind, the most arguments the shell passes: a function may declare fewer, since
# JavaScript ignores the rest, but not more), required?
Spec = Tuple[str, int, bool]
INTERFACE: Dict[str, Spec] = {
    "seatLabel": ("function", 2, True),
    "DEFAULT_BOT": ("string", 0, True),
    "TITLE_HTML": ("string", 0, True),
    "tagline": ("function", 1, True),
    "helpHtml": ("function", 1, True),
    "legend": ("function", 1, True),
    "drawLegendIcon": ("function", 2, True),
    "createModel": ("function", 2, True),
    "layoutFor": ("function", 3, True),
    "draw": ("function", 4, True),
    "cellCenter": ("function", 3, True),
    "Input": ("class", 1, True),
    "REASONS": ("object", 0, True),
    "describeRound": ("function", 1, True),
    "describeMatch": ("function", 1, True),
    "controlsHelp": ("function", 1, True),
    "LEGEND_NOTE": ("string", 0, False),
    "reasonOver": ("function", 3, False),
    "stageHeight": ("function", 3, False),
    "replayStatus": ("function", 2, False),
    "layoutFits": ("function", 2, False),
    "animating": ("function", 2, False),
    "localNote": ("function", 1, False),
    "LOCAL_NOTE": ("string", 0, False),
    "LOCAL_SEAT": ("string", 0, False),
}
# What the shell calls on a view model (createModel's answer) and reads of it, and the
# methods of an Input it calls.
MODEL_METHODS = [
    "apply",
    "applyJoined",
    "applyState",
    "applyEvents",
    "setRules",
    "nowT",
    "view",
    "mySeats",
    "freeSeats",
]
MODEL_FIELDS = ["phase", "role", "mode", "host"]
INPUT_METHODS = ["configure", "cursorList"]

# Prints, for each module given, what each of its exports is, and what its model has.
PROBE = """
const out = {};
for (const [name, url, welcome] of JSON.parse(process.argv[1])) {
  const m = await import(url);
  const exports = {};
  for (const [key, value] of Object.entries(m)) {
    const source = typeof value === "function" ? Function.prototype.toString.call(value) : "";
    const kind = /^class\\b/.test(source) ? "class" : Array.isArray(value) ? "array"
      : value === null ? "null" : typeof value;
    exports[key] = { kind, length: typeof value === "function" ? value.length : 0 };
  }
  let model = null;
  if (typeof m.createModel === "function") {
    const made = m.createModel(welcome.rules, welcome.game);
    const methods = [];
    for (let o = made; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
      for (const k of Object.getOwnPropertyNames(o)) {
        if (typeof made[k] === "function") methods.push(k);
      }
    }
    model = { methods, fields: Object.keys(made) };
  }
  const input = typeof m.Input === "function" ? Object.getOwnPropertyNames(m.Input.prototype) : [];
  out[name] = { exports, model, input };
}
console.log(JSON.stringify(out));
"""


def view_file(game: str) -> Tuple[Path, dict]:
    """The view module the server of ``game`` names in its welcome, and that welcome."""
    welcome = welcome_of(game)
    url = welcome["game"]["view"]
    assert url.startswith("/static/js/"), url
    return JS / url.removeprefix("/static/js/"), welcome


def probe(modules: Dict[str, Tuple[Path, dict]]) -> dict:
    args = [[name, path.as_uri(), welcome] for name, (path, welcome) in modules.items()]
    return node_json(PROBE, json.dumps(args))


def problems(found: dict) -> list:
    """What a probed view module lacks or has of the wrong kind, one line each."""
    out = []
    exports = found["exports"]
    for name, (kind, most, required) in INTERFACE.items():
        if name not in exports:
            if required:
                out.append(f"missing {name} ({kind})")
            continue
        got = exports[name]
        if got["kind"] != kind:
            out.append(f"{name}: a {got['kind']} where the shell needs a {kind}")
        elif got["length"] > most:
            out.append(f"{name} declares {got['length']} arguments, the shell passes {most}")
    if found["model"] is not None:
        for method in MODEL_METHODS:
            if method not in found["model"]["methods"]:
                out.append(f"createModel's model has no {method}()")
        for field in MODEL_FIELDS:
            if field not in found["model"]["fields"]:
                out.append(f"createModel's model has no field {field}")
    if "Input" in exports:
        out += [f"Input has no {m}()" for m in INPUT_METHODS if m not in found["input"]]
    return out


def registered_views() -> Dict[str, Tuple[Path, dict]]:
    from tictacblitz.server.adapter import adapter_games

    games = adapter_games()
    assert games, "no game has a server adapter"
    return {game: view_file(game) for game in games}


def test_every_registered_games_view_provides_the_interface():
    views = registered_views()
    found = probe(views)
    assert sorted(found) == sorted(views)
    assert {game: problems(found[game]) for game in views} == dict.fromkeys(views, [])


def test_a_view_missing_an_export_or_of_the_wrong_kind_fails(tmp_path):
    """The check bites: a copy of Blitz's view without ``draw``, with a ``REASONS`` that
    is a string and an ``Input`` that is a plain function, is refused on all three."""
    path, welcome = view_file("blitz")
    source = path.read_text(encoding="utf-8")
    broken = re.sub(r"^export const draw = drawGame;$", "", source, count=1, flags=re.M)
    broken = broken.replace("export const REASONS = {", "const REASONS0 = {", 1)
    broken = broken.replace('export { Input } from "./input.js";', "", 1)
    assert broken.count("export") < source.count("export") - 2
    broken += '\nexport const REASONS = "no";\nexport function Input(options) { return options; }\n'
    # The copy sits beside the original so that its relative imports resolve.
    copy = path.with_name(f"view_broken_{tmp_path.name}.js")
    copy.write_text(broken, encoding="utf-8")
    try:
        found = probe({"broken": (copy, welcome), "blitz": (path, welcome)})
    finally:
        copy.unlink()
    assert problems(found["blitz"]) == []
    assert problems(found["broken"]) == [
        "missing draw (function)",
        "Input: a function where the shell needs a class",
        "REASONS: a string where the shell needs a object",
        "Input has no configure()",
        "Input has no cursorList()",
    ]


def test_a_function_asking_more_than_the_shell_passes_fails():
    spec_of_tagline = {"kind": "function", "length": 2}
    exports = {name: {"kind": kind, "length": 0} for name, (kind, _, _) in INTERFACE.items()}
    exports["tagline"] = spec_of_tagline
    found = {"exports": exports, "model": None, "input": INPUT_METHODS}
    assert problems(found) == ["tagline declares 2 arguments, the shell passes 1"]


def test_the_docs_table_names_exactly_the_interface():
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### A game's view module", 1)[1].split("\n\n|", 1)[1]
    table = section.split("\n\n", 1)[0]
    documented: Dict[str, bool] = {}
    for row in table.splitlines()[2:]:
        cell = row.split("|")[1]
        for name in re.findall(r"`([A-Za-z_]+)[`(]", cell):
            documented[name] = "(optional)" not in cell
    assert documented == {name: spec[2] for name, spec in INTERFACE.items()}


def test_everything_the_shell_reads_of_a_view_is_in_the_interface():
    shell = "".join((JS / name).read_text(encoding="utf-8") for name in ("main.js", "menu.js"))
    read = set(re.findall(r"\bui\.([A-Za-z_]+)", shell))
    assert read, "the shell reads nothing of a view: has app.ui been renamed?"
    assert read == set(INTERFACE)
