;; Go's rngSource (math/rand v1) skipping `count` draws of a 31-bit rejection sampler (Int31n's
;; loop): each draw takes words until one whose top 31 bits are at most `max`. The ring of 607
;; 64-bit words sits at bytes base..base+4855 (little-endian, GoRandSource's layout), where it
;; stays between calls; `tap` and `feed` are its indices, and the result is the new ones packed
;; as tap * 1024 + feed. The fallback of skip-words-simd.wat where SIMD does not compile.
;; Assembled into skip-words-bytes.ts with wabt 1.0.39's wat2wasm.
(module
  (memory (export "mem") 1)
  (func (export "skip") (param $base i32) (param $tap i32) (param $feed i32) (param $count i32) (param $max i32) (result i32)
    (local $left i32) (local $run i32) (local $tp i32) (local $fp i32) (local $end i32) (local $s i64)
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
        (local.set $end (i32.sub (local.get $fp) (i32.shl (local.get $run) (i32.const 3))))
        (local.set $tap (i32.sub (local.get $tap) (local.get $run)))
        (local.set $feed (i32.sub (local.get $feed) (local.get $run)))
        (local.set $left (i32.sub (local.get $left) (local.get $run)))
        (loop $word
          (local.set $tp (i32.sub (local.get $tp) (i32.const 8)))
          (local.set $fp (i32.sub (local.get $fp) (i32.const 8)))
          (local.set $s (i64.add (i64.load (local.get $fp)) (i64.load (local.get $tp))))
          (i64.store (local.get $fp) (local.get $s))
          ;; A rejected word is not a draw: one more word is needed.
          (if (i32.gt_u
                (i32.and (i32.wrap_i64 (i64.shr_u (local.get $s) (i64.const 32))) (i32.const 0x7fffffff))
                (local.get $max))
            (then (local.set $left (i32.add (local.get $left) (i32.const 1)))))
          (br_if $word (i32.gt_u (local.get $fp) (local.get $end))))
        (br $stretch)))
    (i32.or (i32.shl (local.get $tap) (i32.const 10)) (local.get $feed))))
