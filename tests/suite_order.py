"""The order `make test` runs its files in: tests/conftest.py calls heavy_first()."""

# The files that take longest (seconds of `make test`, measured), started first so that the
# processes end together: `make test` keeps this order (--no-loadscope-reorder), where
# pytest-xdist would otherwise start the files with the most tests first and leave these,
# a few long tests each, for the end.  A file not listed keeps its place after them.
HEAVY_FIRST = (
    "tests/pico/test_flash_failures.py", "tests/rules/test_forecast_brute.py", "tests/pico/test_power_cut.py",
    "tests/pico/test_boot.py", "tests/rules/test_forecast_choices.py", "tests/host/monitor/test_monitor_layout.py",
    "tests/rules/test_cross_runtime.py", "tests/pico/test_hal_coverage.py", "tests/rules/test_properties.py",
    "tests/host/monitor/test_monitor_keys.py", "tests/test_hardware.py", "tests/host/web/test_web_page.py",
)


def heavy_first(items):
    rank = {f: i for i, f in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))      # stable: files stay whole
