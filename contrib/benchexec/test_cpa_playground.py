"""Tests of the BenchExec tool-info module on real runs of `cpa verify` (no mocks).

Run from the repository root with BenchExec installed (scripts/test-benchexec.sh does):
    PYTHONPATH=$PWD target/benchexec-venv/bin/python -m unittest contrib.benchexec.test_cpa_playground
CPA_TOOL_DIR names the tool directory (default: the repository root, for target/release/cpa).
Each command line comes from the module's cmdline() for a task as BenchExec builds it from a
task definition; the output is stdout and stderr together, as runexec records it.
"""

import os
import subprocess
import tempfile
import unittest

import benchexec.result as result
from benchexec.tools.template import BaseTool2, UnsupportedFeatureException
from benchexec.util import ProcessExitCode

from contrib.benchexec.cpa_playground import Tool

SVCOMP = os.path.join("tests", "svcomp")
UNREACH = os.path.join(SVCOMP, "properties", "unreach-call.prp")
ILP32 = {"language": "C", "data_model": "ILP32"}


class RealRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tool = Tool()
        locator = BaseTool2.ToolLocator(tool_directory=os.environ.get("CPA_TOOL_DIR", "."))
        cls.executable = cls.tool.executable(locator)
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def cmdline(self, input_file, property_file=UNREACH, options=(), task_options=ILP32):
        task = BaseTool2.Task.with_files(
            [input_file], property_file=property_file, options=task_options
        )
        return self.tool.cmdline(self.executable, list(options), task, BaseTool2.ResourceLimits())

    def run_cpa(self, cmdline, env=None, kill_after=None, termination_reason=None):
        """Runs cmdline and gives BenchExec's view of it: BaseTool2.Run."""
        proc = subprocess.Popen(
            cmdline,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            universal_newlines=True,
        )
        try:
            out, _ = proc.communicate(timeout=kill_after)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        if proc.returncode < 0:
            exit_code = ProcessExitCode.create(signal=-proc.returncode)
        else:
            exit_code = ProcessExitCode.create(value=proc.returncode)
        output = BaseTool2.RunOutput(out.splitlines(keepends=True))
        return BaseTool2.Run(cmdline, exit_code, output, termination_reason)

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_version_and_name(self):
        self.assertEqual(self.tool.version(self.executable), "0.1.0")
        self.assertEqual(self.tool.name(), "CPA Playground")

    def test_true(self):
        c = os.path.join(SVCOMP, "bitvector", "num_conversion_1.c")
        run = self.run_cpa(self.cmdline(c))
        self.assertEqual(run.exit_code.value, 0, run.output.text)
        self.assertEqual(self.tool.determine_result(run), result.RESULT_TRUE_PROP)
        self.assertRegex(self.tool.get_value_from_output(run.output, "Steps:"), r"^\d+$")

    def test_false_with_options_passed_through(self):
        i = os.path.join(SVCOMP, "loops", "sum04-1.i")
        cmdline = self.cmdline(i, options=["--config", "bmc"])
        self.assertEqual(
            cmdline, [self.executable, "verify", "--config", "bmc", "--spec", UNREACH, i]
        )
        run = self.run_cpa(cmdline)
        self.assertIn("Configuration: bmc", run.output)
        self.assertEqual(self.tool.determine_result(run), result.RESULT_FALSE_REACH)

    def test_unknown(self):
        i = os.path.join(SVCOMP, "loops", "sum04-1.i")
        run = self.run_cpa(self.cmdline(i, options=["--max-steps", "3"]))
        self.assertEqual(self.tool.determine_result(run), result.RESULT_UNKNOWN)

    def test_refused_property(self):
        prp = self.write("no-overflow.prp", "CHECK( init(main()), LTL(G ! overflow) )\n")
        i = os.path.join(SVCOMP, "loops", "sum04-1.i")
        run = self.run_cpa(self.cmdline(i, property_file=prp))
        self.assertEqual(run.exit_code.value, 1)
        self.assertEqual(self.tool.determine_result(run), "ERROR (unsupported property)")

    def test_unsupported_c(self):
        # floating point is outside the C the front end accepts (arrays, pointers
        # and structs are inside it)
        c = self.write("s.c", "int main() { double d = 1.5; return d > 1.0; }\n")
        run = self.run_cpa(self.cmdline(c))
        self.assertEqual(run.exit_code.value, 1)
        self.assertEqual(self.tool.determine_result(run), "ERROR (unsupported C)")

    def test_invalid_option(self):
        i = os.path.join(SVCOMP, "loops", "sum04-1.i")
        run = self.run_cpa(self.cmdline(i, options=["--config", "no-such-preset"]))
        self.assertEqual(run.exit_code.value, 2)
        self.assertEqual(self.tool.determine_result(run), "ERROR (invalid option)")

    def test_solver_missing(self):
        i = os.path.join(SVCOMP, "loops", "sum04-1.i")
        missing = os.path.join(self.tmp.name, "no-z3")
        env = dict(os.environ, PATH=self.tmp.name, CPA_Z3=missing)  # no z3 there
        run = self.run_cpa(self.cmdline(i), env=env)
        self.assertEqual(self.tool.determine_result(run), "ERROR (solver z3 not found)")

    def test_pinned_solver_without_path(self):
        # `make setup` unpacks the pinned Z3 into target/: cpa finds it without PATH, and the
        # module lists it among the program files BenchExec must provide.
        pinned = self.tool._pinned_solver(self.executable)
        self.assertIsNotNone(pinned, "no target/z3-5.1.0/bin/z3: run scripts/setup.sh")
        self.assertIn(pinned, self.tool.program_files(self.executable))
        i = os.path.join(SVCOMP, "loops", "sum04-1.i")
        env = {k: v for k, v in os.environ.items() if k != "CPA_Z3"}
        env["PATH"] = self.tmp.name  # no z3 there
        run = self.run_cpa(self.cmdline(i), env=env)
        self.assertEqual(self.tool.determine_result(run), "false(unreach-call)")

    def test_killed_at_the_time_limit(self):
        # BenchExec kills the run and reports the limit as the termination reason.
        c = os.path.join(SVCOMP, "loop-simple", "deep-nested.c")
        run = self.run_cpa(self.cmdline(c), kill_after=1, termination_reason="cputime")
        self.assertIsNotNone(run.exit_code.signal, "deep-nested.c ended within 1 s")
        self.assertEqual(self.tool.determine_result(run), result.RESULT_TIMEOUT)

    def test_refused_before_the_run(self):
        c = os.path.join(SVCOMP, "bitvector", "num_conversion_1.c")
        with self.assertRaises(UnsupportedFeatureException):
            self.cmdline(c, task_options={"language": "C", "data_model": "LP64"})
        with self.assertRaises(UnsupportedFeatureException):
            task = BaseTool2.Task.with_files([c, c], property_file=UNREACH, options=ILP32)
            self.tool.cmdline(self.executable, [], task, BaseTool2.ResourceLimits())


if __name__ == "__main__":
    unittest.main()
