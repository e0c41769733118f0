# BenchExec tool-info module for CPA Playground (`cpa verify`).
#
# Use it as tool="contrib.benchexec.cpa_playground" with the repository root on PYTHONPATH
# (BenchExec accepts only tool-info modules inside a package); see README.md, "Running with
# BenchExec", and cpa-playground.xml next to this file.

import logging
import os
import re
import shutil

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.template import ToolNotFoundException, UnsupportedFeatureException


# The Z3 version `scripts/setup.sh` installs (solver_bridge::solver::PINNED_Z3_VERSION).
PINNED_Z3 = os.path.join("z3-5.1.0", "bin", "z3")


class Tool(benchexec.tools.template.BaseTool2):
    """
    Tool info for CPA Playground, a teaching verifier for small C programs
    (predicate abstraction with CEGAR, IMPACT, BMC, k-induction, explicit-value and
    symbolic-execution CEGAR).

    The executable is `cpa` (`cpa verify`), looked up in `target/release/` of the
    tool directory or the current directory (a Cargo release build), else in the tool
    directory itself and on PATH. Its solver is the native `z3` binary: the one the
    environment variable CPA_Z3 names, else the pinned Z3 that `make setup` unpacks to
    `target/z3-5.1.0/bin/z3` (cpa finds it in a directory above its own location), else
    `z3` on PATH.

    Command line: `cpa verify [OPTIONS] --spec PROPERTY INPUT.c`. The options of the
    benchmark definition are passed through unchanged, e.g. `--config bmc` or
    `--set encoding=bv` (default preset: predicate-lbe). Only the property unreach-call
    can be checked (cpa refuses every other one: result "ERROR (unsupported property)"),
    one C file per task, the language C and the data model ILP32: tasks with another
    data model or language are refused before the run (UnsupportedFeatureException).
    BenchExec gives a tool-info module the input files of a task definition, its
    options and the property file, but not the task definition itself, so the module
    passes the C file and checks the task's options itself.

    Results: the line `SV-COMP result: TRUE | FALSE(unreach-call) | UNKNOWN` is the
    verdict. Without it, the first error message gives "ERROR (reason)".
    """

    def executable(self, tool_locator):
        try:
            executable = tool_locator.find_executable("cpa", subdir="target/release")
        except ToolNotFoundException as e:
            try:
                executable = tool_locator.find_executable("cpa")
            except ToolNotFoundException:
                raise e from None
        if self._solver(executable) is None:
            logging.warning(
                "cpa finds no z3: neither %s in a directory above %s, nor CPA_Z3, "
                "nor z3 on PATH (run `make setup` in the repository).",
                PINNED_Z3,
                executable,
            )
        return executable

    @staticmethod
    def _pinned_solver(executable):
        """The pinned Z3 cpa uses (the first z3-VERSION/bin/z3 in a directory above it)."""
        directory = os.path.dirname(os.path.abspath(executable))
        while True:
            candidate = os.path.join(directory, PINNED_Z3)
            if os.path.isfile(candidate):
                return candidate
            parent = os.path.dirname(directory)
            if parent == directory:
                return None
            directory = parent

    def _solver(self, executable):
        """The z3 binary cpa will start, as cpa looks it up, or None."""
        named = os.environ.get("CPA_Z3")
        if named:
            return shutil.which(named)
        return self._pinned_solver(executable) or shutil.which("z3")

    def name(self):
        return "CPA Playground"

    def project_url(self):
        # The project has no public web page yet; BenchExec then shows no link.
        return None

    def version(self, executable):
        # `cpa --version` prints `cpa 0.1.0`.
        return self._version_from_tool(executable, "--version", line_prefix="cpa")

    def program_files(self, executable):
        # One self-contained binary and, where it is installed, the pinned Z3 it starts.
        pinned = self._pinned_solver(executable)
        return [executable] + ([pinned] if pinned else [])

    def cmdline(self, executable, options, task, rlimits):
        if isinstance(task.options, dict):
            language = task.options.get("language")
            if language is not None and language != "C":
                raise UnsupportedFeatureException(
                    f"Unsupported language '{language}' of task "
                    f"{task.input_files_or_identifier[0]}: cpa checks C only"
                )
            data_model = task.options.get("data_model")
            if data_model is not None and data_model != "ILP32":
                raise UnsupportedFeatureException(
                    f"Unsupported data_model '{data_model}' of task "
                    f"{task.input_files_or_identifier[0]}: cpa checks ILP32 only"
                )
        input_file = task.single_input_file
        spec = []
        if task.property_file and "--spec" not in options:
            spec = ["--spec", task.property_file]
        return [executable, "verify", *options, *spec, input_file]

    _SVCOMP = re.compile(r"^SV-COMP result:\s*(\S+)")
    _ERROR = re.compile(r"(?:^|(:\d+:\d+)?: )error: (.*)$")

    def determine_result(self, run):
        for line in run.output:
            m = self._SVCOMP.match(line)
            if not m:
                continue
            verdict = m.group(1)
            if verdict == "TRUE":
                return result.RESULT_TRUE_PROP
            if verdict == "FALSE(unreach-call)":
                return result.RESULT_FALSE_REACH
            if verdict.startswith("FALSE"):
                # FALSE(subproperty): the same spelling as BenchExec's constants
                return result.RESULT_FALSE_PROP + verdict[len("FALSE") :]
            if verdict == "UNKNOWN":
                return result.RESULT_UNKNOWN
            return f"{result.RESULT_ERROR} (unexpected result {verdict})"

        # No verdict: killed by BenchExec (time or memory limit), a crash or an error.
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if run.output.any_line_contains("panicked at"):
            return f"{result.RESULT_ERROR} (panic)"
        for line in run.output:
            m = self._ERROR.search(line)
            if m:
                reason = self._reason(m.group(2), in_program=bool(m.group(1)))
                return f"{result.RESULT_ERROR} ({reason})"
        # BenchExec adds the exit code or the signal (ERROR (1), KILLED BY SIGNAL 9, ...).
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        # A statistics line of `cpa verify`, e.g. <column>Solver queries:</column>.
        for line in output:
            if line.startswith(identifier):
                return line[len(identifier) :].strip()
        return None

    @staticmethod
    def _reason(message, in_program):
        """A short reason for the results table from cpa's first error message
        (in_program: a diagnostic of the front end at a line and column of the C file)."""
        if in_program:
            return "unsupported C" if "not supported" in message else "invalid C"
        if message.startswith("property ") and "not supported" in message:
            return "unsupported property"
        if message.startswith("unknown property") or "not an SV-COMP property" in message:
            return "unknown property"
        if message.startswith(("data model", "language")) or "input files" in message:
            return "unsupported task"
        if "the task has no unreach-call property" in message:
            return "unsupported property"
        if "cannot start the solver" in message:
            return "solver z3 not found"
        if message.startswith(("unknown preset", "unknown setting", "invalid")):
            return "invalid option"
        if message.startswith("cannot read"):
            return "cannot read file"
        return message[:60]
