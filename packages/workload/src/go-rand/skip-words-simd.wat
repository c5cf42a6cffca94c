;; skip-words-scalar.wat with 128-bit SIMD: the same arguments, result and words. A word feeds the
;; one 273 steps later, so up to 273 consecutive steps are independent; this adds four words at a
;; time with two i64x2.add. A word is rejected when its top 31 bits exceed `max`, that is when the
;; word without its top bit exceeds max * 2^32 + 2^32-1 (both non-negative as signed 64-bit
;; numbers): i64x2.gt_s gives -1 per rejected lane, and subtracting it counts the rejections.
;; Assembled into skip-words-bytes.ts with wabt 1.0.39's wat2wasm.
(module
  (memory (export "mem") 1)
  (func (export "skip") (param $base i32) (param $tap i32) (param $feed i32) (param $count i32) (param $max i32) (result i32)
    (local $left i32) (local $run i32) (local $tp i32) (local $fp i32) (local $quads i32) (local $s i64)
    (local $limit i64) (local $thr v128) (local $low63 v128) (local $rej v128) (local $rej2 v128) (local $a v128) (local $b v128)
    (local.set $limit (i64.or (i64.shl (i64.extend_i32_u (local.get $max)) (i64.const 32)) (i64.const 0xffffffff)))
    (local.set $thr (i64x2.splat (local.get $limit)))
    (local.set $low63 (v128.const i64x2 0x7fffffffffffffff 0x7fffffffffffffff))
    (local.set $left (local.get $count))
    (block $done
      (loop $stretch
        (br_if $done (i32.le_s (local.get $left) (i32.const 0)))
        (if (i32.eqz (local.get $tap)) (then (local.set $tap (i32.const 607))))
        (if (i32.eqz (local.get $feed)) (then (local.set $feed (i32.const 607))))
        ;; Indices only decrease inside a stretch: none wraps before min(left, tap, feed) words,
        ;; and `left` words can hold at most `left` draws, so none is taken past the last draw.
        (local.set $run (local.get $left))
        (if (i32.lt_s (local.get $tap) (local.get $run)) (then (local.set $run (local.get $tap))))
        (if (i32.lt_s (local.get $feed) (local.get $run)) (then (local.set $run (local.get $feed))))
        (local.set $tp (i32.add (local.get $base) (i32.shl (local.get $tap) (i32.const 3))))
        (local.set $fp (i32.add (local.get $base) (i32.shl (local.get $feed) (i32.const 3))))
        (local.set $tap (i32.sub (local.get $tap) (local.get $run)))
        (local.set $feed (i32.sub (local.get $feed) (local.get $run)))
        (local.set $left (i32.sub (local.get $left) (local.get $run)))
        ;; Two counts, one per vector of a quad, so that neither waits on the other's last update.
        (local.set $rej (v128.const i64x2 0 0))
        (local.set $rej2 (v128.const i64x2 0 0))
        ;; Words go from high indices to low, four at a time: [fp-16, fp) holds the first two.
        (local.set $quads (i32.shr_u (local.get $run) (i32.const 2)))
        (if (local.get $quads)
          (then
            (loop $quad
              (local.set $tp (i32.sub (local.get $tp) (i32.const 32)))
              (local.set $fp (i32.sub (local.get $fp) (i32.const 32)))
              (local.set $a (i64x2.add (v128.load offset=16 (local.get $fp)) (v128.load offset=16 (local.get $tp))))
              (local.set $b (i64x2.add (v128.load (local.get $fp)) (v128.load (local.get $tp))))
              (v128.store offset=16 (local.get $fp) (local.get $a))
              (v128.store (local.get $fp) (local.get $b))
              (local.set $rej (i64x2.sub (local.get $rej) (i64x2.gt_s (v128.and (local.get $a) (local.get $low63)) (local.get $thr))))
              (local.set $rej2 (i64x2.sub (local.get $rej2) (i64x2.gt_s (v128.and (local.get $b) (local.get $low63)) (local.get $thr))))
              (local.set $quads (i32.sub (local.get $quads) (i32.const 1)))
              (br_if $quad (local.get $quads)))))
        (if (i32.and (local.get $run) (i32.const 2))
          (then
            (local.set $tp (i32.sub (local.get $tp) (i32.const 16)))
            (local.set $fp (i32.sub (local.get $fp) (i32.const 16)))
            (local.set $a (i64x2.add (v128.load (local.get $fp)) (v128.load (local.get $tp))))
            (v128.store (local.get $fp) (local.get $a))
            (local.set $rej (i64x2.sub (local.get $rej) (i64x2.gt_s (v128.and (local.get $a) (local.get $low63)) (local.get $thr))))))
        (if (i32.and (local.get $run) (i32.const 1))
          (then
            (local.set $tp (i32.sub (local.get $tp) (i32.const 8)))
            (local.set $fp (i32.sub (local.get $fp) (i32.const 8)))
            (local.set $s (i64.add (i64.load (local.get $fp)) (i64.load (local.get $tp))))
            (i64.store (local.get $fp) (local.get $s))
            (if (i64.gt_s (i64.and (local.get $s) (i64.const 0x7fffffffffffffff)) (local.get $limit))
              (then (local.set $left (i32.add (local.get $left) (i32.const 1)))))))
        ;; A rejected word is not a draw: one more word is needed for each.
        (local.set $rej (i64x2.add (local.get $rej) (local.get $rej2)))
        (local.set $left (i32.add (local.get $left)
          (i32.wrap_i64 (i64.add (i64x2.extract_lane 0 (local.get $rej)) (i64x2.extract_lane 1 (local.get $rej))))))
        (br $stretch)))
    (i32.or (i32.shl (local.get $tap) (i32.const 10)) (local.get $feed))))
