; status: sat
(declare-fun x0 () Int)
(declare-fun x1 () Int)
(assert (= x0 0))
(assert (= x1 (+ x0 1)))
(assert (< x1 5))
