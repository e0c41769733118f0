; status: unsat
; x = 0; while (x < 10) x++; assert(x <= 10);  -- error path with one loop iteration (SSA)
(declare-fun x@0 () Int)
(declare-fun x@1 () Int)
(assert (= x@0 0))
(assert (and (< x@0 10) (= x@1 (+ x@0 1))))
(assert (not (< x@1 10)))
(assert (not (<= x@1 10)))
