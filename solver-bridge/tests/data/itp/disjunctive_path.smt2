; status: unsat
; farkas: not-applicable
; two LBE blocks with branches on one path:
; x0 = 0; if (y0 > 0) x1 = x0 + 1 else x1 = x0 + 2; if (x1 > 1) x2 = x1 else x2 = x1 - 1; assume(x2 < 0)
(declare-fun x0 () Int)
(declare-fun y0 () Int)
(declare-fun x1 () Int)
(declare-fun x2 () Int)
(assert (= x0 0))
(assert (or (and (> y0 0) (= x1 (+ x0 1))) (and (<= y0 0) (= x1 (+ x0 2)))))
(assert (or (and (> x1 1) (= x2 x1)) (and (<= x1 1) (= x2 (- x1 1)))))
(assert (< x2 0))
