//! A bounded memo: what was computed for each key, at most `capacity` entries (past that it
//! starts afresh). For values that are functions of their key: remembering them changes no
//! result, only the time.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};

pub struct Memo<K, V, S = std::collections::hash_map::RandomState> {
    map: RefCell<HashMap<K, V, S>>,
    capacity: usize,
}

impl<K: Hash + Eq + Clone, V: Clone, S: BuildHasher + Default> Memo<K, V, S> {
    pub fn new(capacity: usize) -> Self {
        Memo {
            map: RefCell::new(HashMap::with_hasher(S::default())),
            capacity,
        }
    }

    /// The value remembered for `k`, or `make`'s, then remembered. `make` runs while the
    /// memo is not borrowed, so it may use other memos.
    pub fn get_or(&self, k: &K, make: impl FnOnce() -> V) -> V {
        if let Some(v) = self.map.borrow().get(k) {
            return v.clone();
        }
        let v = make();
        let mut map = self.map.borrow_mut();
        if map.len() >= self.capacity {
            map.clear();
        }
        map.insert(k.clone(), v.clone());
        v
    }

    /// The number of values remembered.
    pub fn len(&self) -> usize {
        self.map.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
