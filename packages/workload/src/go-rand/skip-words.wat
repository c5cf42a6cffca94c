;; Go's rngSource (math/rand v1) skipping `count` draws of a 31-bit rejection sampler (Int31n's
;; loop): each draw takes words until one whose top 31 bits are at most `max`. The ring of 607
;; 64-bit words sits at bytes 0..4855 (little-endian, as GoRandSource lays it out); the ring's
;; tap and feed indices are read from and written back to bytes 4864 and 4868.
;; Assembled to skip-words-wasm.ts with wabt 1.0.39's wat2wasm.
(module
  (memory (export "mem") 1)
  (func (export "skip") (param $count i32) (param $max i32)
    (local $tap i32) (local $feed i32) (local $left i32) (local $run i32) (local $end i32) (local $s i64)
    (local.set $tap (i32.load (i32.const 4864)))
    (local.set $feed (i32.load (i32.const 4868)))
    (local.set $left (local.get $count))
    (block $done
      (loop $stretch
        (br_if $done (i32.le_s (local.get $left) (i32.const 0)))
        (if (i32.eqz (local.get $tap)) (then (local.set $tap (i32.const 607))))
        (if (i32.eqz (local.get $feed)) (then (local.set $feed (i32.const 607))))
        ;; Indices only decrease inside a stretch: none wraps before min(left, tap, feed) words.
        (local.set $run (local.get $left))
        (if (i32.lt_s (local.get $tap) (local.get $run)) (then (local.set $run (local.get $tap))))
        (if (i32.lt_s (local.get $feed) (local.get $run)) (then (local.set $run (local.get $feed))))
        (local.set $end (i32.sub (local.get $feed) (local.get $run)))
        (loop $word
          (local.set $tap (i32.sub (local.get $tap) (i32.const 1)))
          (local.set $feed (i32.sub (local.get $feed) (i32.const 1)))
          (local.set $s (i64.add
            (i64.load (i32.shl (local.get $feed) (i32.const 3)))
            (i64.load (i32.shl (local.get $tap) (i32.const 3)))))
          (i64.store (i32.shl (local.get $feed) (i32.const 3)) (local.get $s))
          ;; A rejected word is not a draw: one more word is needed.
          (if (i32.gt_u
                (i32.and (i32.wrap_i64 (i64.shr_u (local.get $s) (i64.const 32))) (i32.const 0x7fffffff))
                (local.get $max))
            (then (local.set $left (i32.add (local.get $left) (i32.const 1)))))
          (br_if $word (i32.gt_s (local.get $feed) (local.get $end))))
        (local.set $left (i32.sub (local.get $left) (local.get $run)))
        (br $stretch)))
    (i32.store (i32.const 4864) (local.get $tap))
    (i32.store (i32.const 4868) (local.get $feed))))
