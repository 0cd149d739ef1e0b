"""The one part of the build that pyproject.toml cannot say: the threat
forecast's compiled pattern search (shared_rules/siege/forecast/csrc/),
a C extension built with the machine's C compiler.  It is optional: where it
cannot be built (no compiler, or one without 128-bit integers, such as MSVC)
the install goes on and the forecast runs the same search in Python, slower
(docs/rules-forecast.md).  Everything else is in pyproject.toml."""

import glob

from setuptools import Extension, setup

SOURCES = "shared_rules/siege/forecast/csrc/"

setup(ext_modules=[Extension("shared_rules.siege.forecast.fastcore", [SOURCES + "module.c"],
                             depends=glob.glob(SOURCES + "*.h"), optional=True,
                             extra_compile_args=["-O3", "-pthread"], extra_link_args=["-pthread"])])
