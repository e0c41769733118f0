; status: unsat
; farkas: not-applicable
; x1 = x0 mod 4; assume(x1 > 3)
(declare-fun x0 () Int)
(declare-fun x1 () Int)
(assert (>= x0 0))
(assert (= x1 (mod x0 4)))
(assert (> x1 3))
