"""A small stdlib model of OpenEvolve's cascade driver (openevolve/evaluator.py @ 75bc2989), so
that the tests can check evaluator.py against the rules OpenEvolve applies to it:

- stage 1 runs; an exception gives `{"stage1_passed": 0.0, "error": 0.0}`;
- a stage passes when `combined_score >= t` if the metrics have one, else when the mean of the
  numeric metrics other than `error` is `>= t`; stage 1 is gated by thresholds[0], the merged
  stages 1+2 by thresholds[1] (stage 3 is not gated after it runs);
- a stage that fails its gate ends the cascade with the results so far, as they are;
- merging converts numeric metrics to float and drops `error`; later stages overwrite;
  artifacts merge the same way;
- an exception in stage 2 or 3 keeps the earlier results and adds `stageN_passed: 0.0`.

Evaluator functions may return a dict of metrics or an object with `metrics` and `artifacts`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Sequence, Tuple

Metrics = Dict[str, Any]
Artifacts = Dict[str, Any]


def as_result(value: Any) -> Tuple[Metrics, Artifacts]:
    if isinstance(value, dict):
        return dict(value), {}
    if hasattr(value, "metrics"):
        return dict(value.metrics), dict(getattr(value, "artifacts", {}) or {})
    return {"error": 0.0}, {}


def passes(metrics: Metrics, threshold: float) -> bool:
    if "combined_score" in metrics and isinstance(metrics["combined_score"], (int, float)):
        return float(metrics["combined_score"]) >= threshold
    values = [float(v) for k, v in metrics.items() if k != "error" and isinstance(v, (int, float)) and not isinstance(v, bool)]
    return bool(values) and sum(values) / len(values) >= threshold


def merge_into(target: Metrics, source: Metrics) -> None:
    for k, v in source.items():
        if k != "error" and isinstance(v, (int, float)):
            target[k] = float(v)


def run_cascade(module: Any, program_path: str, thresholds: Sequence[float]) -> Tuple[Metrics, Artifacts, int]:
    """Returns the final metrics, artifacts and how many stages ran (an exception counts)."""
    stage1: Callable[[str], Any] = getattr(module, "evaluate_stage1", None)
    if stage1 is None:
        m, a = as_result(module.evaluate(program_path))
        return m, a, 1
    try:
        m1, a1 = as_result(stage1(program_path))
    except Exception as e:  # noqa: BLE001 - the driver turns any exception into a result
        return {"stage1_passed": 0.0, "error": 0.0}, {"stderr": str(e), "failure_stage": "stage1"}, 1
    if not passes(m1, thresholds[0]) or not hasattr(module, "evaluate_stage2"):
        return m1, a1, 1
    try:
        m2, a2 = as_result(module.evaluate_stage2(program_path))
    except Exception as e:  # noqa: BLE001
        m1["stage2_passed"] = 0.0
        a1.update({"stage2_stderr": str(e), "failure_stage": "stage2"})
        return m1, a1, 2
    merged: Metrics = {}
    merge_into(merged, m1)
    merge_into(merged, m2)
    artifacts = {**a1, **a2}
    if len(thresholds) < 2 or not passes(merged, thresholds[1]) or not hasattr(module, "evaluate_stage3"):
        return merged, artifacts, 2
    try:
        m3, a3 = as_result(module.evaluate_stage3(program_path))
    except Exception as e:  # noqa: BLE001
        merged["stage3_passed"] = 0.0
        artifacts.update({"stage3_stderr": str(e), "failure_stage": "stage3"})
        return merged, artifacts, 3
    merge_into(merged, m3)
    artifacts.update(a3)
    return merged, artifacts, 3
