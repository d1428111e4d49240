"""The sensitivity report's units (issue 24 review, finding 1): a metric stored as a
fraction, a share or a difference of shares (seat_gap, unit pp), is shown in percentage
points; any other metric in its own unit."""

from tictacblitz.lab.sensitivity_report import effect_text
from tictacblitz.lab.units import unit


def test_seat_gap_effect_is_shown_in_percentage_points():
    # seat_gap is X's score - 1/2 kept as a fraction: 0.021 is 2.1 pp, not 0.021 pp.
    assert unit("seat_gap", "blitz") == "pp"
    assert effect_text(0.021, 0.005, unit("seat_gap", "blitz")) == "2.1 pp ± 0.5"


def test_a_share_and_a_plain_number_keep_their_units():
    assert effect_text(0.123, 0.021, unit("draw_rate", "blitz")) == "12.3 pp ± 2.1"
    assert effect_text(1.53, 0.2, "s") == "1.53 s ± 0.2"
