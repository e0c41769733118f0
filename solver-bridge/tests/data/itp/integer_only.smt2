; status: unsat
; farkas: not-applicable
; 2y = x with x odd: unsatisfiable over the integers only (parity)
(declare-fun x () Int)
(declare-fun y () Int)
(declare-fun k () Int)
(assert (= x (+ (* 2 k) 1)))
(assert (= x (* 2 y)))
