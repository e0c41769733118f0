; status: unsat
; farkas: not-applicable
; y = (x > 0 ? x : -x); assume(y < 0)
(declare-fun x () Int)
(declare-fun y () Int)
(assert (= y (ite (> x 0) x (- x))))
(assert (< y 0))
