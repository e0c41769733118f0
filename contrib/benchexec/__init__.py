# A package only so that BenchExec can load contrib.benchexec.cpa_playground (tool-info
# modules must live in a package).
