"""The "Checking" comparison of scenario files (docs/replay-format.md), as the shared
contract checker does it.

Copied (not imported) so the tests run without the shared folder.
"""

import json


def short(value, limit=80):
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def scalar_equal(expected, actual):
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if expected is None or actual is None:
        return expected is None and actual is None
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return expected == actual
    return type(expected) is type(actual) and expected == actual


def first_diff(expected, actual, path="$"):
    """None if ``actual`` matches ``expected``, else a one-line description of the first
    difference (depth-first, in ``expected``'s key order)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return "%s: expected an object, got %s" % (path, short(actual))
        for key, value in expected.items():
            sub = "%s.%s" % (path, key)
            if key not in actual:
                return "%s: missing (expected %s)" % (sub, short(value))
            diff = first_diff(value, actual[key], sub)
            if diff:
                return diff
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return "%s: expected a list, got %s" % (path, short(actual))
        # The common prefix first; a length difference is reported after it.
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            diff = first_diff(e, a, "%s[%d]" % (path, i))
            if diff:
                return diff
        if len(expected) != len(actual):
            return "%s: expected %d items, got %d: %s" % (
                path,
                len(expected),
                len(actual),
                short(actual, 160),
            )
        return None
    if scalar_equal(expected, actual):
        return None
    return "%s: expected %s, got %s" % (path, short(expected), short(actual))


def result_diff(scenario, result):
    """None if ``result`` satisfies the file's ``expect`` and ``expect_any``, else why not."""
    diff = first_diff(scenario.get("expect", {}), result)
    if diff:
        return diff
    alternatives = scenario.get("expect_any")
    if alternatives is not None:
        diffs = [first_diff(alt, result) for alt in alternatives]
        if all(diffs):
            return "no expect_any alternative matches; alternative 0: %s" % diffs[0]
    return None


def expects_error(scenario):
    """A file that is not a JSON object, or says ``"expect_error": true``, is malformed."""
    return not isinstance(scenario, dict) or scenario.get("expect_error") is True
