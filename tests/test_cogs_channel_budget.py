"""The channel edit cadence stays within the bot token's global budget (issue 4)."""

from cogs.channel import EDIT_BUDGET, MIN_INTERVAL, edit_interval


def test_few_tables_edit_once_a_second() -> None:
    assert edit_interval(0) == MIN_INTERVAL
    assert edit_interval(1) == MIN_INTERVAL
    assert edit_interval(int(EDIT_BUDGET)) == MIN_INTERVAL


def test_many_tables_share_the_budget() -> None:
    for tables in (31, 200, 1000, 5000):
        interval = edit_interval(tables)
        assert interval > MIN_INTERVAL
        # Every table editing as often as allowed still stays within the budget.
        assert tables / interval <= EDIT_BUDGET + 1e-9
