//! Texts put into events and state labels, bounded as they are written: every formula text is
//! clipped to [`MAX_TEXT`] bytes, so a run's memory grows with its states, not with the size
//! of its formulas.

/// Longest formula text put into an event.
pub const MAX_TEXT: usize = 3000;

pub fn clip(text: impl std::fmt::Display) -> String {
    clip_display(&text, MAX_TEXT)
}

/// The texts of `items` for one event, [`MAX_TEXT`] bytes in all: each clipped to what is
/// left, and the ones beyond counted in a last entry `(N more)`. An abstraction event lists
/// the predicates of its location, and a divergent refinement adds dozens of long ones.
pub fn clip_all<T: std::fmt::Display>(items: &[T]) -> Vec<String> {
    let mut left = MAX_TEXT;
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if left == 0 {
            out.push(format!("({} more)", items.len() - i));
            break;
        }
        let text = clip_display(item, left);
        left = left.saturating_sub(text.len());
        out.push(text);
    }
    out
}

/// `s` cut to at most `max` bytes (at a character boundary) with `…` appended when cut.
pub fn clip_to(s: String, max: usize) -> String {
    if s.len() <= max {
        return s;
    }
    clip_display(&s, max)
}

/// The text of `text`, cut to at most `max` bytes (at a character boundary) with `…`
/// appended when cut. The writing stops at the cut, so a formula of millions of nodes costs
/// no more than its first `max` bytes (a divergent refinement's predicates grow with every
/// refinement, and every abstraction event carries them).
pub fn clip_display(text: &impl std::fmt::Display, max: usize) -> String {
    use std::fmt::Write;
    struct Bounded {
        out: String,
        max: usize,
        cut: bool,
    }
    impl Write for Bounded {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            if self.cut {
                return Err(std::fmt::Error);
            }
            if self.out.len() + s.len() <= self.max {
                self.out.push_str(s);
                return Ok(());
            }
            let mut end = self.max - self.out.len();
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.out.push_str(&s[..end]);
            self.out.push('…');
            self.cut = true;
            Err(std::fmt::Error)
        }
    }
    let mut b = Bounded {
        out: String::new(),
        max,
        cut: false,
    };
    // An error here is the cut (a Display of ours never fails otherwise).
    let _ = write!(b, "{text}");
    b.out
}

/// A text for a message: at most 120 characters (`…` at the end when cut).
pub fn short(text: &str) -> String {
    if text.chars().count() <= 120 {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(119).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_clipped_at_a_character_boundary() {
        assert_eq!(clip_to("abc".into(), 3), "abc");
        assert_eq!(clip_to("aéb".into(), 2), "a…");
        assert_eq!(clip("ψ".repeat(MAX_TEXT)).len(), MAX_TEXT + '…'.len_utf8());
    }

    /// Sixty predicates of 1,000 bytes each: three fit, and the list stays within MAX_TEXT and says how many
    /// it left out.
    #[test]
    fn a_list_of_long_predicates_is_bounded() {
        let preds: Vec<String> = (0..60).map(|i| format!("{i:0>1000}")).collect();
        let texts = clip_all(&preds);
        let total: usize = texts.iter().map(String::len).sum();
        assert!(total <= MAX_TEXT + 20, "{total}");
        assert_eq!(texts[0], preds[0]);
        assert_eq!(texts.last().unwrap(), "(57 more)");
        let short = clip_all(&["p", "q"]);
        assert_eq!(short, ["p", "q"]);
    }
}
