"""evaluator.py against the real `blis evaluate` (and a fake CLI for the failures the real one
cannot be made to show on demand). Real calls are memoised per (program, stage): the CLI is
deterministic, and each call pays Node's start-up."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import tempfile
import time
import types
import unittest
from pathlib import Path
from unittest import mock

import evaluator
from tests.cascade_driver import passes, run_cascade

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent
INITIAL = EXAMPLE / "initial_program.ts"
FAKE_CLI = HERE / "fake_cli.py"

BROKEN_TS = "export default (ctx: any) => ({ name: 'broken', route(req, state) { return { instance: 0 ; } });\n"
ROUND_ROBIN_YAML = "routing:\n  policy: round-robin\n"

_cache: dict = {}


def real(text_or_path, stage: str, suffix: str = ".ts") -> evaluator.EvaluationResult:
    """evaluate_with_artifacts on a path or a text (written to a temp file with `suffix`), memoised."""
    key = (str(text_or_path), stage, suffix)
    if key not in _cache:
        if isinstance(text_or_path, Path):
            _cache[key] = evaluator.evaluate_with_artifacts(str(text_or_path), stage)
        else:
            with tempfile.TemporaryDirectory() as d:
                p = Path(d) / f"candidate{suffix}"
                p.write_text(text_or_path, encoding="utf-8")
                _cache[key] = evaluator.evaluate_with_artifacts(str(p), stage)
    return _cache[key]


class MemoModule:
    """The evaluator's stage functions as a cascade driver sees them, through the memo."""

    def __init__(self, text_or_path):
        self.src = text_or_path

    def evaluate_stage1(self, _path):
        return real(self.src, "stage1")

    def evaluate_stage2(self, _path):
        return real(self.src, "stage2")

    def evaluate_stage3(self, _path):
        return real(self.src, "stage3")


def config_list(key: str):
    """A list under `database:` or `evaluator:` of config.yaml, read without a YAML parser."""
    lines = (EXAMPLE / "config.yaml").read_text(encoding="utf-8").splitlines()
    out, inside = [], False
    for line in lines:
        if re.match(rf"\s+{key}:\s*$", line):
            inside = True
            continue
        if inside:
            m = re.match(r"\s+-\s*\"?([^\"#]+?)\"?\s*(#.*)?$", line)
            if not m:
                break
            out.append(m.group(1).strip())
    return out


class EvaluateTest(unittest.TestCase):
    def test_evaluate_returns_plain_metrics_without_openevolve(self):
        with mock.patch.object(evaluator, "evaluate_with_artifacts", return_value=real(INITIAL, "full")):
            out = evaluator.evaluate(str(INITIAL))
        self.assertIsInstance(out, dict)
        self.assertTrue(all(isinstance(v, float) for v in out.values()))
        self.assertIn("combined_score", out)

    def test_full_set_metrics_features_and_score(self):
        r = real(INITIAL, "full")
        self.assertNotIn("error", r.metrics, r.artifacts)
        self.assertGreater(r.metrics["combined_score"], 0.0)
        self.assertLess(r.metrics["combined_score"], 1.0)
        self.assertEqual(r.metrics["full_score"], r.metrics["combined_score"])
        for name in ("p99_ttft_us", "throughput_rps", "slo_attainment", "cache_hit_rate", "invariant_violations", "mean_replicas", "disagg_fraction"):
            self.assertIn(name, r.metrics)
        self.assertEqual(r.metrics["mean_replicas"], 4.0)
        self.assertEqual(r.metrics["invariant_violations"], 0.0)

    def test_combined_score_is_the_simulators_score_without_features(self):
        r = real(INITIAL, "full")
        per = json.loads(r.artifacts["per_scenario"])
        # Equal scenario weights: the combined score is the mean of the scenario scores, nothing else.
        self.assertAlmostEqual(r.metrics["combined_score"], sum(s["score"] for s in per) / len(per), places=12)
        weights = evaluator.load_scenarios()["objectives"]["weights"]
        features = config_list("feature_dimensions")
        self.assertEqual(features, ["complexity", "cache_hit_rate"])
        for f in features:
            self.assertNotIn(f, weights)
        # Custom feature dimensions must be metrics the evaluator returns, as raw values.
        self.assertGreaterEqual(r.metrics["cache_hit_rate"], 0.0)
        self.assertLessEqual(r.metrics["cache_hit_rate"], 1.0)

    def test_artifacts(self):
        r = real(INITIAL, "full")
        self.assertEqual(set(r.artifacts), {"summary", "per_scenario", "stderr"})
        per = json.loads(r.artifacts["per_scenario"])
        self.assertEqual([s["id"] for s in per], [s["id"] for s in evaluator.scenarios_for("stage2")])
        self.assertIn("TTFT p99", per[0]["feedback"])
        self.assertIn("combined_score", r.artifacts["summary"])

    def test_deterministic(self):
        a = real(INITIAL, "stage1")
        b = evaluator.evaluate_with_artifacts(str(INITIAL), "stage1")
        self.assertEqual(a.metrics, b.metrics)

    def test_policy_yaml_candidate(self):
        r = real(ROUND_ROBIN_YAML, "stage1", suffix=".yaml")
        self.assertNotIn("error", r.metrics, r.artifacts)
        self.assertGreater(r.metrics["combined_score"], 0.0)

    def test_with_openevolve_installed_returns_its_evaluation_result(self):
        class FakeResult:
            def __init__(self, metrics, artifacts):
                self.metrics, self.artifacts = metrics, artifacts

        pkg = types.ModuleType("openevolve")
        sub = types.ModuleType("openevolve.evaluation_result")
        sub.EvaluationResult = FakeResult
        pkg.evaluation_result = sub
        with mock.patch.dict(sys.modules, {"openevolve": pkg, "openevolve.evaluation_result": sub}):
            with mock.patch.object(evaluator, "evaluate_with_artifacts", return_value=real(INITIAL, "stage1")):
                out = evaluator.evaluate_stage1(str(INITIAL))
        self.assertIsInstance(out, FakeResult)
        self.assertEqual(out.metrics, real(INITIAL, "stage1").metrics)
        self.assertIn("per_scenario", out.artifacts)


class FailureTest(unittest.TestCase):
    def assertFailure(self, r, kind: str):
        self.assertEqual(r.metrics, {"combined_score": 0.0, "error": 0.0})
        self.assertEqual(set(r.artifacts), {"stderr", "failure_stage"})
        self.assertIn(kind, r.artifacts["failure_stage"])

    def test_invalid_candidate(self):
        r = real(BROKEN_TS, "stage1")
        self.assertFailure(r, "invalid_candidate")
        self.assertIn("candidate.ts:1", r.artifacts["stderr"])

    def test_candidate_that_throws_at_run_time(self):
        text = "export default () => ({ name: 'thrower', route() { throw new Error('no route today'); } });\n"
        r = real(text, "stage1")
        self.assertFailure(r, "invalid_candidate")
        self.assertIn("no route today", r.artifacts["stderr"])

    def test_missing_and_empty_program(self):
        self.assertFailure(evaluator.evaluate_with_artifacts("/nonexistent/program.ts", "stage1"), "read")
        with tempfile.NamedTemporaryFile("w", suffix=".ts", delete=False) as f:
            f.write("  \n")
        try:
            self.assertFailure(evaluator.evaluate_with_artifacts(f.name, "stage2"), "read")
        finally:
            os.unlink(f.name)

    def test_non_json_output(self):
        with mock.patch.dict(os.environ, {"BLIS_CLI": f"{sys.executable} {FAKE_CLI} nonjson"}):
            r = evaluator.evaluate_with_artifacts(str(INITIAL), "stage2")
        self.assertFailure(r, "non_json")
        self.assertIn("this is not a response", r.artifacts["stderr"])

    def test_crash_keeps_the_stderr_tail(self):
        with mock.patch.dict(os.environ, {"BLIS_CLI": f"{sys.executable} {FAKE_CLI} crash"}):
            r = evaluator.evaluate_with_artifacts(str(INITIAL), "stage1")
        self.assertFailure(r, "non_json")
        self.assertIn("internal error: something broke", r.artifacts["stderr"])

    def test_timeout(self):
        env = {"BLIS_CLI": f"{sys.executable} {FAKE_CLI} sleep", "BLIS_EVAL_TIMEOUT_S": "1"}
        with mock.patch.dict(os.environ, env):
            r = evaluator.evaluate_with_artifacts(str(INITIAL), "stage3")
        self.assertFailure(r, "stage3: timeout")

    def test_cli_missing(self):
        with mock.patch.dict(os.environ, {"BLIS_CLI": "/nonexistent/blis-binary"}):
            r = evaluator.evaluate_with_artifacts(str(INITIAL), "stage1")
        self.assertFailure(r, "launch")

    def test_public_entry_points_never_raise(self):
        with mock.patch.dict(os.environ, {"BLIS_CLI": f"{sys.executable} {FAKE_CLI} nonjson"}):
            for fn in (evaluator.evaluate, evaluator.evaluate_stage1, evaluator.evaluate_stage2, evaluator.evaluate_stage3):
                self.assertEqual(fn(str(INITIAL)), {"combined_score": 0.0, "error": 0.0})


class StageTest(unittest.TestCase):
    def test_stage_sets(self):
        doc = evaluator.load_scenarios()
        (smoke,) = evaluator.scenarios_for("stage1")
        self.assertEqual(smoke["seeds"], [1])
        self.assertLessEqual(smoke["workload"]["spec"]["num_requests"], 100)
        full = evaluator.scenarios_for("stage2")
        self.assertEqual(full, evaluator.scenarios_for("full"))
        robust = evaluator.scenarios_for("stage3")
        self.assertEqual(robust[: len(full)], full)
        extra = robust[len(full):]
        self.assertTrue(extra)
        used = {seed for s in full for seed in s["seeds"]}
        self.assertTrue(all(set(s["seeds"]).isdisjoint(used) for s in extra))
        arrivals = {c["arrival"]["process"] for s in extra for c in s["workload"]["spec"]["clients"]}
        self.assertIn("bursty", arrivals)
        self.assertEqual(doc["base_config"], evaluator.build_request({"kind": "baseline"}, "stage1")["base_config"])

    def test_request(self):
        req = evaluator.build_request(evaluator.candidate_for("x.ts", "export default 1"), "stage2")
        self.assertEqual(req["protocol"], "blis-eval/1")
        self.assertEqual(req["candidate"], {"kind": "policy-module", "text": "export default 1", "language": "typescript", "policy_kind": "routing"})
        self.assertEqual(evaluator.candidate_for("x.mjs", "t")["language"], "javascript")
        self.assertEqual(evaluator.candidate_for("x.yaml", "t"), {"kind": "policy-yaml", "text": "t"})

    def test_subprocess_timeout_is_nine_tenths_of_the_configured_one(self):
        self.assertEqual(evaluator.read_config_value(EXAMPLE / "config.yaml", "evaluator", "timeout"), "120")
        with mock.patch.dict(os.environ, {"BLIS_EVAL_TIMEOUT_S": ""}):
            self.assertAlmostEqual(evaluator.subprocess_timeout_s(), 108.0)
        with mock.patch.dict(os.environ, {"BLIS_EVAL_TIMEOUT_S": "10"}):
            self.assertAlmostEqual(evaluator.subprocess_timeout_s(), 9.0)

    def test_cli_budget_leaves_a_tenth_and_at_least_a_second_but_at_most_half(self):
        # 108 s: a tenth (10.8 s) is the larger reserve; 3.6 s: one second; 1 s: half.
        self.assertEqual(evaluator.cli_budget_ms(108.0), 97200)
        self.assertEqual(evaluator.cli_budget_ms(3.6), 2600)
        self.assertEqual(evaluator.cli_budget_ms(1.0), 500)
        self.assertEqual(evaluator.cli_budget_ms(0.001), 1)

    def test_stage1_zeroes_a_score_with_an_invariant_violation(self):
        response = {
            "protocol": "blis-eval/1", "status": "ok", "error": None, "combined_score": 0.7,
            "metrics": {"p99_ttft_us": 1000.0, "invariant_violations": 1.0}, "features": {"mean_replicas": 4.0},
            "per_scenario": [{"id": "smoke", "score": 0.7, "objective_scores": {}, "metrics": {}, "features": {}, "feedback": "", "trace_summary": {}}],
            "artifacts": {"summary": "smoke: score 0.7"},
        }
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(response, f)
        try:
            with mock.patch.dict(os.environ, {"BLIS_CLI": f"{sys.executable} {FAKE_CLI} canned {f.name}"}):
                s1 = evaluator.evaluate_with_artifacts(str(INITIAL), "stage1")
                s2 = evaluator.evaluate_with_artifacts(str(INITIAL), "stage2")
        finally:
            os.unlink(f.name)
        self.assertEqual(s1.metrics["combined_score"], 0.0)
        self.assertEqual(s1.metrics["invariant_violations"], 1.0)
        self.assertEqual(s2.metrics["combined_score"], 0.7)

    def test_initial_program_passes_the_configured_gates(self):
        thresholds = [float(t) for t in config_list("cascade_thresholds")]
        self.assertEqual(len(thresholds), 2)
        self.assertGreaterEqual(real(INITIAL, "stage1").metrics["combined_score"], thresholds[0])
        self.assertGreaterEqual(real(INITIAL, "stage2").metrics["combined_score"], thresholds[1])

    def test_evolve_block_markers_and_language(self):
        text = INITIAL.read_text(encoding="utf-8")
        start = text.index("// # EVOLVE-BLOCK-START")
        self.assertGreater(text.index("// # EVOLVE-BLOCK-END"), start)
        self.assertRegex((EXAMPLE / "config.yaml").read_text(encoding="utf-8"), r"(?m)^language: typescript$")


class CascadeTest(unittest.TestCase):
    """The evaluator under the cascade driver's documented rules (tests/cascade_driver.py)."""

    def test_good_program_runs_three_stages_and_merges(self):
        metrics, artifacts, stages = run_cascade(MemoModule(INITIAL), str(INITIAL), [0.3, 0.3])
        self.assertEqual(stages, 3)
        self.assertNotIn("error", metrics)
        self.assertTrue(all(isinstance(v, float) for v in metrics.values()))
        # Each stage's own score survives the merge; the last stage's combined_score wins.
        for stage in ("stage1", "stage2", "stage3"):
            self.assertEqual(metrics[f"{stage}_score"], real(INITIAL, stage).metrics["combined_score"])
        self.assertEqual(metrics["combined_score"], metrics["stage3_score"])
        self.assertIn("stage3", artifacts["summary"])

    def test_gate_after_stage2(self):
        s2 = real(INITIAL, "stage2").metrics["combined_score"]
        metrics, _, stages = run_cascade(MemoModule(INITIAL), str(INITIAL), [0.3, s2 + 1e-9])
        self.assertEqual(stages, 2)
        self.assertEqual(metrics["combined_score"], s2)
        self.assertNotIn("stage3_score", metrics)

    def test_gate_after_stage1(self):
        s1 = real(INITIAL, "stage1").metrics["combined_score"]
        metrics, _, stages = run_cascade(MemoModule(INITIAL), str(INITIAL), [s1 + 1e-9, 0.0])
        self.assertEqual(stages, 1)
        self.assertEqual(metrics, real(INITIAL, "stage1").metrics)

    def test_bad_program_stops_at_stage1_with_error_keys(self):
        metrics, artifacts, stages = run_cascade(MemoModule(BROKEN_TS), "broken.ts", [0.45, 0.5])
        self.assertEqual(stages, 1)
        self.assertEqual(metrics, {"combined_score": 0.0, "error": 0.0})
        self.assertIn("stage1", artifacts["failure_stage"])

    def test_driver_rules(self):
        # Threshold gating: combined_score when present, else the mean of numeric metrics except error.
        self.assertTrue(passes({"combined_score": 0.5, "x": 0.0}, 0.5))
        self.assertFalse(passes({"combined_score": 0.4, "x": 1.0}, 0.5))
        self.assertTrue(passes({"a": 0.4, "b": 0.8, "error": 0.0}, 0.6))
        self.assertFalse(passes({"a": 0.4, "b": 0.6, "error": 0.0}, 0.6))

        class Flaky:
            def evaluate_stage1(self, _p):
                return {"combined_score": 0.9, "error": 0.0, "a": 1}

            def evaluate_stage2(self, _p):
                raise RuntimeError("stage 2 blew up")

        metrics, artifacts, _ = run_cascade(Flaky(), "p", [0.5, 0.5])
        self.assertEqual(metrics["stage2_passed"], 0.0)
        self.assertEqual(artifacts["failure_stage"], "stage2")

        class Broken:
            def evaluate_stage1(self, _p):
                raise RuntimeError("stage 1 blew up")

        metrics, _, _ = run_cascade(Broken(), "p", [0.5])
        self.assertEqual(metrics, {"stage1_passed": 0.0, "error": 0.0})

        class Merging:
            def evaluate_stage1(self, _p):
                return {"combined_score": 0.9, "error": 0.0, "a": 1}

            def evaluate_stage2(self, _p):
                return {"combined_score": 0.2, "b": 2}

            def evaluate_stage3(self, _p):
                raise AssertionError("gated out")

        metrics, _, stages = run_cascade(Merging(), "p", [0.5, 0.5])
        self.assertEqual((metrics, stages), ({"combined_score": 0.2, "a": 1.0, "b": 2.0}, 2))


SPIN_TS = "export default () => ({ name: 'spin', route() { while (true) {} } });\n"


class PersistentCliTest(unittest.TestCase):
    """The evaluator's one `blis evaluate --serve` child per process, and its fallbacks."""

    def setUp(self):
        # Short subprocess and CLI budgets, so that the stuck candidate costs seconds.
        self.env = mock.patch.dict(os.environ, {"BLIS_EVAL_TIMEOUT_S": "20", "BLIS_CLI": "", "BLIS_EVAL_MODE": ""})
        self.env.start()

    def tearDown(self):
        self.env.stop()

    def client(self):
        return evaluator.serve_client(tuple(evaluator.cli_command()))

    def test_one_child_answers_every_call_and_a_stuck_candidate_does_not_poison_the_next(self):
        with tempfile.TemporaryDirectory() as d:
            spin = Path(d) / "spin.ts"
            spin.write_text(SPIN_TS, encoding="utf-8")
            first = evaluator.evaluate_with_artifacts(str(INITIAL), "stage1")
            pid = self.client()._proc.pid
            with mock.patch.dict(os.environ, {"BLIS_EVAL_TIMEOUT_S": "4"}):
                stuck = evaluator.evaluate_with_artifacts(str(spin), "stage1")
            after = evaluator.evaluate_with_artifacts(str(INITIAL), "stage1")
        self.assertEqual(stuck.metrics, {"combined_score": 0.0, "error": 0.0})
        self.assertEqual(stuck.artifacts["failure_stage"], "stage1: timeout")
        self.assertIn('route() for request 0 ("0")', stuck.artifacts["stderr"])
        # The CLI answered the stuck candidate itself (max_wall_ms): the same child goes on.
        self.assertEqual(self.client()._proc.pid, pid)
        self.assertEqual(after.metrics, first.metrics)

    def test_oneshot_mode_gives_the_same_metrics(self):
        persistent = evaluator.evaluate_with_artifacts(str(INITIAL), "stage2")
        with mock.patch.dict(os.environ, {"BLIS_EVAL_MODE": "oneshot"}):
            oneshot = evaluator.evaluate_with_artifacts(str(INITIAL), "stage2")
        self.assertEqual(json.dumps(oneshot.metrics, sort_keys=True), json.dumps(persistent.metrics, sort_keys=True))
        self.assertEqual(oneshot.metrics, real(INITIAL, "stage2").metrics)

    def test_a_child_that_crashed_or_hung_is_replaced(self):
        with mock.patch.dict(os.environ, {"BLIS_CLI": f"{sys.executable} {FAKE_CLI} crash"}):
            crashed = evaluator.evaluate_with_artifacts(str(INITIAL), "stage1")
            again = evaluator.evaluate_with_artifacts(str(INITIAL), "stage1")
        self.assertEqual(crashed.artifacts["failure_stage"], "stage1: non_json")
        self.assertIn("internal error: something broke", again.artifacts["stderr"])
        with mock.patch.dict(os.environ, {"BLIS_CLI": f"{sys.executable} {FAKE_CLI} sleep", "BLIS_EVAL_TIMEOUT_S": "1"}):
            hung = evaluator.evaluate_with_artifacts(str(INITIAL), "stage1")
            self.assertIsNone(self.client()._proc)  # killed, to be started again on the next call
        self.assertEqual(hung.artifacts["failure_stage"], "stage1: timeout")

    def test_unknown_mode_is_refused(self):
        with mock.patch.dict(os.environ, {"BLIS_EVAL_MODE": "threads"}):
            with self.assertRaises(ValueError):
                evaluator.eval_mode()

    def test_the_bundle_is_used_only_when_newer_than_every_source(self):
        with tempfile.TemporaryDirectory() as d:
            repo = Path(d)
            src = repo / "packages" / "engine" / "src" / "step.ts"
            bundle = repo / "packages" / "cli" / "dist" / "cli.cjs"
            src.parent.mkdir(parents=True)
            bundle.parent.mkdir(parents=True)
            src.write_text("x", encoding="utf-8")
            bundle.write_text("y", encoding="utf-8")
            os.utime(src, (1000, 1000))
            os.utime(bundle, (2000, 2000))
            self.assertEqual(evaluator.current_bundle(repo), bundle)
            evaluator._bundles.clear()
            os.utime(src, (3000, 3000))
            self.assertIsNone(evaluator.current_bundle(repo))
            evaluator._bundles.clear()


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, killed and not yet reaped by whoever inherited it, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True


def _gone(pid: int) -> bool:
    """Whether `pid` ends within a generous while (a SIGKILL is delivered, not awaited, by kill)."""
    for _ in range(500):
        if not _alive(pid):
            return True
        time.sleep(0.02)
    return False


@unittest.skipUnless(hasattr(os, "killpg"), "process groups are POSIX")
class StopTest(unittest.TestCase):
    """Closing a `--serve` child: it ends by itself at the end of its input, else it and its group are killed."""

    def test_a_child_that_ends_with_its_input_is_waited_for(self):
        serve = evaluator.ServeClient((sys.executable, str(FAKE_CLI), "nonjson"))
        self.assertEqual(serve.ask("{}", 30)[0], 0)
        proc = serve._proc
        serve.close()
        self.assertEqual(proc.returncode, 0)

    def test_a_child_that_ignores_the_end_of_its_input_is_killed_with_its_group(self):
        serve = evaluator.ServeClient((sys.executable, str(FAKE_CLI), "linger"))
        serve.STOP_GRACE_S = 0.3
        code, line, _ = serve.ask("{}", 30)
        self.assertEqual(code, 0)
        grandchild = int(line)
        proc = serve._proc
        serve.close()
        self.assertEqual(proc.returncode, -signal.SIGKILL)
        self.assertTrue(_gone(grandchild), f"pid {grandchild} outlived its group's kill")


if __name__ == "__main__":
    unittest.main()
