//! Share links from outside: committed v1 fixtures still open as they did when they were made,
//! and thousands of mutated links are decoded without a panic, each either refused with a
//! message or opened as a state that passes validation.

use cpa_engine::fuzz::Rng;
use cpa_web::state::link::{Link, LinkError, Program, MAX_FRAGMENT};

/// `web/tests/links/v1.tsv`: a fragment, then what it opens as (program, preset, knobs, step).
fn fixtures() -> Vec<(String, String)> {
    include_str!("links/v1.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (f, want) = l.split_once('\t').expect("fragment<TAB>summary");
            (f.to_string(), want.to_string())
        })
        .collect()
}

fn summary(link: &Link) -> String {
    let program = match &link.program {
        Program::Example(e) => format!("example {}", e.key),
        Program::Text { file, source } => format!("text {file} {} bytes", source.len()),
    };
    let knobs: Vec<String> = link
        .config
        .set
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    format!(
        "{program}; {} [{}]; step {}; {:?} {:?} {:?}",
        link.config.preset,
        knobs.join(" "),
        link.step,
        link.tab,
        link.graph,
        link.selection
    )
}

#[test]
fn committed_v1_links_still_open() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 4);
    for (fragment, want) in fixtures {
        let link = Link::decode(&fragment)
            .unwrap_or_else(|e| panic!("{fragment}: {e}"))
            .expect("a link");
        assert_eq!(summary(&link), want, "{fragment}");
    }
}

const ALPHABET: &[u8] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=#%<>\"'&v1";

fn mutate(rng: &mut Rng, s: &str) -> String {
    let mut b: Vec<u8> = s.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let n = b.len();
        match rng.below(7) {
            0 if n > 0 => {
                let i = rng.below(n);
                b[i] = ALPHABET[rng.below(ALPHABET.len())];
            }
            1 if n > 0 => b.truncate(rng.below(n)),
            2 => {
                let i = rng.below(n + 1);
                b.insert(i, ALPHABET[rng.below(ALPHABET.len())]);
            }
            3 if n > 0 => {
                b.remove(rng.below(n));
            }
            4 if n > 4 => {
                // Duplicate a slice.
                let i = rng.below(n);
                let j = (i + rng.below(64)).min(n);
                let piece = b[i..j].to_vec();
                let k = rng.below(n);
                b.splice(k..k, piece);
            }
            5 => {
                let v = format!("v{}=", rng.below(4));
                let cut = b.iter().position(|&c| c == b'=').map_or(0, |i| i + 1);
                b.splice(0..cut, v.bytes());
            }
            _ if n > 0 => b[rng.below(n)] ^= 1u8 << rng.below(7),
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn mutated_links_open_or_say_why() {
    let seeds: Vec<String> = fixtures().into_iter().map(|(f, _)| f).collect();
    let mut rng = Rng::new(1);
    let (mut opened, mut refused) = (0, 0);
    for i in 0..20_000 {
        let base = &seeds[i % seeds.len()];
        let fragment = mutate(&mut rng, base);
        match Link::decode(&fragment) {
            Ok(Some(link)) => {
                // Whatever opens is a valid state, and encodes to a link that opens as itself.
                opened += 1;
                let again = Link::decode(&link.encode()).expect("re-encoded link opens");
                assert_eq!(again, Some(link), "{fragment}");
            }
            Ok(None) => assert!(fragment.trim_start_matches('#').is_empty()),
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    eprintln!("mutated links: {opened} opened, {refused} refused");
    assert!(refused > 10_000, "opened {opened}, refused {refused}");
    // Oversized input is refused before any work.
    let huge = format!("v1={}", "A".repeat(MAX_FRAGMENT));
    assert!(matches!(Link::decode(&huge), Err(LinkError::TooLong(_))));
}

/// Mutations of the state itself, packed correctly: the validation, not the compression, must
/// refuse them (or accept a state that is valid).
#[test]
fn mutated_states_open_or_say_why() {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;
    let states: Vec<String> = fixtures()
        .into_iter()
        .map(|(f, _)| {
            let packed = URL_SAFE_NO_PAD.decode(&f[3..]).unwrap();
            String::from_utf8(miniz_oxide::inflate::decompress_to_vec(&packed).unwrap()).unwrap()
        })
        .collect();
    let mut rng = Rng::new(42);
    let (mut opened, mut refused) = (0, 0);
    for i in 0..10_000 {
        let json = mutate(&mut rng, &states[i % states.len()]);
        let fragment = format!(
            "v1={}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6))
        );
        match Link::decode(&fragment) {
            Ok(Some(link)) => {
                opened += 1;
                assert_eq!(Link::decode(&link.encode()), Ok(Some(link)), "{json}");
            }
            Ok(None) => unreachable!(),
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    eprintln!("mutated states: {opened} opened, {refused} refused");
    assert!(opened > 100 && refused > 1000, "{opened} {refused}");
}
