"""BlisTsAdapter against the real `blis evaluate` (a fake CLI only for systemic failures).
Real calls are memoised: the CLI is deterministic and each call pays Node's start-up."""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import signal
import sys
import time
import unittest
from pathlib import Path
from unittest import mock

import blis_gepa_adapter as g

FAKE_CLI = Path(__file__).resolve().parent / "fake_cli.py"
DOC = g.load_scenarios()
TRAIN = DOC["trainset"]
VAL = DOC["valset"]
INVALID = {"routing": "policy: no-such-policy\n", "admission": "policy: always-admit\n"}
LEAST_LOADED = {"routing": "policy: least-loaded\n"}
# A routing component written as a decision tree (docs/decision-trees.md); the component's name
# gives its kind, so the text needs no `kind:` line.
TREE = {
    "routing": "tree:\n"
    "  if: {signal: request.input_tokens, op: \">\", value: 1024}\n"
    "  then: {route: least, by: instance.kv_utilization}\n"
    "  else: {route: least, by: instance.load}\n"
}
BAD_TREE = {"routing": TREE["routing"].replace("request.input_tokens", "request.output_tokens")}

_cache: dict = {}


def evaluated(name: str, candidate, batch, capture_traces: bool):
    key = (name, capture_traces)
    if key not in _cache:
        _cache[key] = g.BlisTsAdapter().evaluate(batch, candidate, capture_traces=capture_traces)
    return _cache[key]


class EvaluateTest(unittest.TestCase):
    def test_fallback_batch_has_gepas_fields(self):
        fields = {f.name: f.default for f in dataclasses.fields(g.EvaluationBatch)}
        self.assertEqual(list(fields), ["outputs", "scores", "trajectories", "objective_scores", "num_metric_calls"])
        self.assertEqual([fields[k] for k in ("trajectories", "objective_scores", "num_metric_calls")], [None, None, None])

    def test_propose_new_texts_is_declared_none(self):
        # GEPA reads the attribute without hasattr(); None selects its reflection-LM proposer.
        self.assertIsNone(g.BlisTsAdapter().propose_new_texts)

    def test_request_is_one_components_request_for_the_batch(self):
        req = g.BlisTsAdapter().build_request(TRAIN[:2], g.SEED_CANDIDATE)
        self.assertEqual(req["candidate"], {"kind": "components", "components": g.SEED_CANDIDATE})
        self.assertEqual(req["scenarios"], TRAIN[:2])
        self.assertEqual(req["protocol"], "blis-eval/1")
        # The default 300 s wait: the CLI's budget ends a tenth earlier, at 270 s.
        self.assertEqual(req["max_wall_ms"], g.cli_budget_ms(g.BlisTsAdapter().timeout_s))
        self.assertEqual(g.cli_budget_ms(300.0), 270000)
        self.assertEqual(g.cli_budget_ms(4.0), 3000)

    def test_lengths_without_traces(self):
        r = evaluated("seed", g.SEED_CANDIDATE, TRAIN[:2], False)
        self.assertEqual(len(r.outputs), 2)
        self.assertEqual(len(r.scores), 2)
        self.assertIsNone(r.trajectories)
        self.assertEqual(len(r.objective_scores), 2)
        self.assertEqual(set(r.objective_scores[0]), {"p99_ttft", "throughput", "slo_attainment"})
        self.assertIn("p99_ttft_us", r.outputs[0])

    def test_trajectories_with_traces(self):
        r = evaluated("seed+traces", g.SEED_CANDIDATE, TRAIN[:2], True)
        self.assertEqual(len(r.trajectories), 2)
        self.assertEqual([t["scenario"] for t in r.trajectories], [s["id"] for s in TRAIN[:2]])
        for t in r.trajectories:
            self.assertIsNone(t["error"])
            self.assertIn("TTFT p99", t["feedback"])
            self.assertIn("requests at", t["workload"])
        # Same scores whether traces are captured or not.
        self.assertEqual(r.scores, evaluated("seed", g.SEED_CANDIDATE, TRAIN[:2], False).scores)

    def test_scores_stay_below_a_perfect_score(self):
        for r in (evaluated("seed", g.SEED_CANDIDATE, TRAIN[:2], False),):
            for s in r.scores:
                self.assertGreater(s, 0.0)
                self.assertLess(s, 1.0)

    def test_invalid_candidate_scores_zero_with_the_error_in_every_trajectory(self):
        r = evaluated("invalid", INVALID, TRAIN[:2], True)
        self.assertEqual(r.scores, [0.0, 0.0])
        self.assertEqual(len(r.outputs), 2)
        self.assertEqual(len(r.trajectories), 2)
        for t in r.trajectories:
            self.assertIn("invalid_candidate", t["error"])
            self.assertIn("no-such-policy", t["error"])

    def test_decision_tree_components_run_and_their_errors_reach_the_trajectories(self):
        r = evaluated("tree", TREE, TRAIN[:2], False)
        self.assertEqual(len(r.scores), 2)
        for s in r.scores:
            self.assertGreater(s, 0.0)
        bad = evaluated("bad-tree", BAD_TREE, TRAIN[:2], True)
        self.assertEqual(bad.scores, [0.0, 0.0])
        for t in bad.trajectories:
            self.assertIn("components.routing:2 tree.if.signal", t["error"])

    def test_does_not_mutate_batch_or_candidate(self):
        batch, cand = copy.deepcopy(TRAIN[:2]), dict(g.SEED_CANDIDATE)
        req = g.BlisTsAdapter().build_request(batch, cand)
        req["scenarios"][0]["seeds"].append(99)
        req["candidate"]["components"]["routing"] = "changed"
        self.assertEqual(batch, TRAIN[:2])
        self.assertEqual(cand, g.SEED_CANDIDATE)
        evaluated("seed", cand, batch, False)
        self.assertEqual(batch, TRAIN[:2])
        self.assertEqual(cand, g.SEED_CANDIDATE)

    def test_batch_evaluate_runs_pairs_in_parallel_in_order(self):
        items = [(g.SEED_CANDIDATE, TRAIN[:2]), (INVALID, TRAIN[:2]), (LEAST_LOADED, VAL)]
        results = g.BlisTsAdapter(max_workers=3).batch_evaluate(items)
        self.assertEqual([len(r.scores) for r in results], [2, 2, len(VAL)])
        self.assertEqual(results[0].scores, evaluated("seed+traces", g.SEED_CANDIDATE, TRAIN[:2], True).scores)
        self.assertEqual(results[0].trajectories, evaluated("seed+traces", g.SEED_CANDIDATE, TRAIN[:2], True).trajectories)
        self.assertEqual(results[1].scores, [0.0, 0.0])
        self.assertTrue(all(r.trajectories is not None for r in results))
        self.assertTrue(all(s > 0 for s in results[2].scores))
        self.assertEqual(g.BlisTsAdapter().batch_evaluate([]), [])

    def test_systemic_failures_raise(self):
        with mock.patch.dict(os.environ, {"BLIS_CLI": f"{sys.executable} {FAKE_CLI} nonjson"}):
            with self.assertRaises(g.BlisEvaluateError):
                g.BlisTsAdapter().evaluate(TRAIN[:1], g.SEED_CANDIDATE)
        with self.assertRaises(g.BlisEvaluateError):
            g.BlisTsAdapter(cli="/nonexistent/blis-binary").evaluate(TRAIN[:1], g.SEED_CANDIDATE)

    def test_timeout_is_the_candidates_failure(self):
        a = g.BlisTsAdapter(cli=f"{sys.executable} {FAKE_CLI} sleep", timeout_s=1)
        r = a.evaluate(TRAIN[:2], g.SEED_CANDIDATE, capture_traces=True)
        self.assertEqual(r.scores, [0.0, 0.0])
        self.assertTrue(all("did not answer" in t["error"] for t in r.trajectories))


class PersistentCliTest(unittest.TestCase):
    """The adapter's `--serve` children: reused, one per concurrent evaluation, same answers as one-shot."""

    def test_sequential_calls_reuse_one_child(self):
        a = g.BlisTsAdapter()
        try:
            first = a.evaluate(TRAIN[:1], g.SEED_CANDIDATE)
            pid = a._children[0]._proc.pid
            second = a.evaluate(TRAIN[:1], LEAST_LOADED)
            self.assertEqual(len(a._children), 1)
            self.assertEqual(a._children[0]._proc.pid, pid)
            self.assertEqual(first.scores, evaluated("seed", g.SEED_CANDIDATE, TRAIN[:2], False).scores[:1])
            self.assertNotEqual(first.scores, second.scores)
        finally:
            a.close()
        self.assertIsNone(a._children[0]._proc)

    def test_oneshot_gives_the_same_batch(self):
        persistent = g.BlisTsAdapter().evaluate(TRAIN[:2], g.SEED_CANDIDATE, capture_traces=True)
        with mock.patch.dict(os.environ, {"BLIS_EVAL_MODE": "oneshot"}):
            adapter = g.BlisTsAdapter()
            self.assertFalse(adapter.persistent)
            oneshot = adapter.evaluate(TRAIN[:2], g.SEED_CANDIDATE, capture_traces=True)
        self.assertEqual(dataclasses.asdict(oneshot), dataclasses.asdict(persistent))
        self.assertEqual(g.BlisTsAdapter(persistent=False).evaluate(TRAIN[:1], LEAST_LOADED).scores, g.BlisTsAdapter().evaluate(TRAIN[:1], LEAST_LOADED).scores)


class ReflectiveDatasetTest(unittest.TestCase):
    def batch(self, n: int, error=None) -> "g.EvaluationBatch":
        trajectories = [
            {
                "scenario": f"s{i}",
                "workload": f"workload {i}",
                "score": 0.1 * (i % 5),
                "metrics": {} if error else {"p99_ttft_us": 40000.0 + i, "throughput_rps": 30.0, "slo_attainment": 0.9},
                "feedback": "" if error else f"Scenario s{i}: TTFT p99 40 ms.\nRouting: 200 decisions; per instance 0:200.\nPreemptions 0.",
                "trace_summary": {},
                "error": error,
            }
            for i in range(n)
        ]
        return g.EvaluationBatch(outputs=[{}] * n, scores=[t["score"] for t in trajectories], trajectories=trajectories)

    def test_records(self):
        ds = g.BlisTsAdapter().make_reflective_dataset(g.SEED_CANDIDATE, self.batch(3), ["routing"])
        self.assertEqual(list(ds), ["routing"])
        self.assertEqual(len(ds["routing"]), 3)
        rec = ds["routing"][0]
        self.assertEqual(set(rec), {"Inputs", "Generated Outputs", "Feedback"})
        self.assertEqual(rec["Inputs"]["scenario"], "s0")
        self.assertEqual(rec["Inputs"]["current_text"], g.SEED_CANDIDATE["routing"])
        self.assertEqual(rec["Generated Outputs"]["p99 TTFT (ms)"], 40.0)
        self.assertIn("Most relevant to `routing`:\nRouting: 200 decisions", rec["Feedback"])
        json.dumps(ds)  # GEPA puts it in a prompt

    def test_seeded_subsample_prefers_weak_scenarios(self):
        a = g.BlisTsAdapter(max_records=4, seed=7)
        b = self.batch(12)
        first = a.make_reflective_dataset(g.SEED_CANDIDATE, b, ["routing", "admission"])
        again = a.make_reflective_dataset(g.SEED_CANDIDATE, b, ["routing", "admission"])
        self.assertEqual(first, again)
        for comp in ("routing", "admission"):
            self.assertEqual(len(first[comp]), 4)
            self.assertTrue(all(b.scores[int(r["Inputs"]["scenario"][1:])] <= 0.1 for r in first[comp]))
        self.assertNotIn("Most relevant", first["admission"][0]["Feedback"])

    def test_error_feedback(self):
        ds = g.BlisTsAdapter().make_reflective_dataset(INVALID, self.batch(2, error="invalid_candidate: bad routing"), ["routing"])
        for rec in ds["routing"]:
            self.assertEqual(rec["Generated Outputs"], {"status": "rejected"})
            self.assertIn("invalid_candidate: bad routing", rec["Feedback"])

    def test_real_batch(self):
        r = evaluated("seed+traces", g.SEED_CANDIDATE, TRAIN[:2], True)
        ds = g.BlisTsAdapter().make_reflective_dataset(g.SEED_CANDIDATE, r, ["routing"])
        self.assertEqual([rec["Inputs"]["scenario"] for rec in ds["routing"]], [s["id"] for s in TRAIN[:2]])
        self.assertIn("Routing:", ds["routing"][0]["Feedback"])


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
        serve = g.BlisServe(command=(sys.executable, str(FAKE_CLI), "nonjson"))
        self.assertEqual(serve.ask("{}", 30)[0], 0)
        proc = serve._proc
        serve.close()
        self.assertEqual(proc.returncode, 0)

    def test_a_child_that_ignores_the_end_of_its_input_is_killed_with_its_group(self):
        serve = g.BlisServe(command=(sys.executable, str(FAKE_CLI), "linger"))
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
