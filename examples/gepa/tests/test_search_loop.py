"""A ten-iteration search in plain Python, end to end through `blis evaluate --serve`: random
mutation of the weighted router's scorer weights (seeded), keep the best. It starts from a
clearly bad profile (all weight on prefix affinity, which piles a shared system prompt's
requests onto one replica), so an improvement within ten tries is certain for this seed; the
run is deterministic (seeded mutations, deterministic simulator), so the assertion cannot flake."""

from __future__ import annotations

import math
import random
import unittest

import blis_gepa_adapter as g

SCORERS = ("prefix-affinity", "queue-depth", "kv-utilization", "load-balance")
START = {"prefix-affinity": 1.0, "queue-depth": 0.0, "kv-utilization": 0.0, "load-balance": 0.0}


def routing_text(weights) -> str:
    # BLIS wants positive weights: a scorer at 0 is left out.
    lines = [f"  - {{name: {n}, weight: {w:.3f}}}" for n, w in weights.items() if w > 0]
    return "policy: weighted\nscorers:\n" + "\n".join(lines) + "\n"


def mutate(weights, rng: random.Random):
    out = dict(weights)
    name = rng.choice(SCORERS)
    if out[name] == 0 or rng.random() < 0.5:
        out[name] = round(rng.uniform(0.0, 2.0), 3)
    else:
        out[name] = round(out[name] * math.exp(rng.gauss(0.0, 0.7)), 3)
    if all(w <= 0 for w in out.values()):
        out[name] = 1.0
    return out


def search(serve: g.BlisServe, adapter: g.BlisTsAdapter, scenarios, iterations: int, seed: int):
    rng = random.Random(seed)

    def score(weights) -> float:
        response = serve.evaluate(adapter.build_request(scenarios, {"routing": routing_text(weights)}))
        assert response["status"] == "ok", response.get("error")
        return response["combined_score"]

    best, best_score = dict(START), score(START)
    history = [(best_score, dict(best))]
    initial = best_score
    for _ in range(iterations):
        trial = mutate(best, rng)
        s = score(trial)
        history.append((s, trial))
        if s > best_score:
            best, best_score = trial, s
    return initial, best_score, best, history


class SearchLoopTest(unittest.TestCase):
    def test_ten_iterations_improve_the_score(self):
        adapter = g.BlisTsAdapter(trace="none")
        scenarios = g.load_scenarios()["trainset"]
        with g.BlisServe() as serve:
            initial, best, weights, history = search(serve, adapter, scenarios, iterations=10, seed=1)
        self.assertEqual(len(history), 11)
        self.assertGreater(best, initial, f"no improvement in 10 iterations: {history}")
        self.assertLess(best, 1.0)
        # The winner puts weight on a load signal, the fix for the bad start.
        self.assertTrue(any(weights[n] > 0 for n in SCORERS[1:]), weights)

    def test_serve_answers_like_one_shot_evaluate(self):
        adapter = g.BlisTsAdapter()
        request = adapter.build_request(g.load_scenarios()["valset"][:1], g.SEED_CANDIDATE)
        with g.BlisServe() as serve:
            a = serve.evaluate(request)
            b = serve.evaluate(request)
        self.assertEqual(a, b)
        self.assertEqual(a["per_scenario"][0]["score"], adapter.evaluate(g.load_scenarios()["valset"][:1], g.SEED_CANDIDATE).scores[0])


if __name__ == "__main__":
    unittest.main()
