"""The one part of the build that pyproject.toml cannot say: the threat
forecast's compiled pattern search (host/osada/siege/forecast/csrc/),
a C extension built with the machine's C compiler.  It is optional: where it
cannot be built (no compiler, or one without 128-bit integers, such as MSVC)
the install goes on and the forecast runs the same search in Python, slower
(docs/rules-forecast.md).  Everything else is in pyproject.toml."""

import glob
import os
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCES = "host/osada/siege/forecast/csrc/"

# Flags used where the compiler takes them (x86-64 gcc), left out elsewhere: gcc clears the
# search's small arrays (a state's 30 groups, its 20 fields) with `rep stos`, whose start-up
# cost was 7 % of a search's time here; a vector loop instead (docs/benchmarks.md).
IF_ACCEPTED = ["-mmemset-strategy=vector_loop:1024:noalign,libcall:-1:noalign"]


class BuildExt(build_ext):
    """build_ext, with each flag of IF_ACCEPTED that the compiler accepts."""

    def build_extensions(self):
        extra = [flag for flag in IF_ACCEPTED if self._accepts(flag)]
        for ext in self.extensions:
            ext.extra_compile_args = ext.extra_compile_args + extra
        super().build_extensions()

    def _accepts(self, flag):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "flag.c")
            with open(src, "w") as f:
                f.write("int main(void) { return 0; }\n")
            try:
                self.compiler.compile([src], output_dir=tmp, extra_postargs=["-Werror", flag])
            except Exception:        # CompileError, or a compiler that cannot run at all
                return False
        return True


setup(cmdclass={"build_ext": BuildExt},
      ext_modules=[Extension("osada.siege.forecast.fastcore", [SOURCES + "module.c"],
                             depends=glob.glob(SOURCES + "*.h"), optional=True,
                             extra_compile_args=["-O3", "-pthread"], extra_link_args=["-pthread"])])
