//! Tag conditions (`WhiteElo >= 2500`) and the globs they and player names match with.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use super::super::tags::{is_tag_name, Tags};

/// How a [`TagCondition`] compares a tag's value with its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagOp {
    /// `=`
    Eq,
    /// `!=`, the one that a missing tag matches.
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `~`: the value matches a glob (`*` any text, `?` any one character).
    Glob,
}

impl TagOp {
    /// Longest first, so that `<=` is not read as `<` followed by `=`.
    const SPELLINGS: [(&'static str, TagOp); 7] = [
        ("!=", TagOp::Ne),
        ("<=", TagOp::Le),
        (">=", TagOp::Ge),
        ("=", TagOp::Eq),
        ("<", TagOp::Lt),
        (">", TagOp::Gt),
        ("~", TagOp::Glob),
    ];

    fn as_str(self) -> &'static str {
        TagOp::SPELLINGS.iter().find(|(_, op)| *op == self).map_or("", |(text, _)| text)
    }
}

/// A condition on one tag, read from `NAME OP VALUE` ([`TagOp`] lists the operators).
///
/// Two values that are both numbers (`2500`, `-3`, `0.5`) compare as numbers, anything else as
/// text (byte order, which orders `YYYY.MM.DD` dates). A game without the tag matches only `!=`.
/// Spaces around the operator are optional; the value is the rest of the text, and may be put
/// in double quotes.
///
/// ```
/// use chesscore_core::game::{TagCondition, Tags};
///
/// let mut tags = Tags::new();
/// tags.insert("WhiteElo", "2650");
/// tags.insert("Date", "2024.03.01");
/// let holds = |text: &str| text.parse::<TagCondition>().unwrap().matches(&tags);
/// assert!(holds("WhiteElo >= 2600"));
/// assert!(holds("WhiteElo > 900")); // as numbers, not as text
/// assert!(holds("Date < 2024.10.01"));
/// assert!(holds("Date ~ 2024.*"));
/// assert!(!holds("BlackElo > 0") && holds("BlackElo != 2000"));
/// assert!("WhiteElo 2600".parse::<TagCondition>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TagCondition {
    name: String,
    op: TagOp,
    value: String,
    /// The value as a number, when it is one.
    number: Option<f64>,
}

/// Why a tag condition was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TagConditionError {
    /// The text does not start with a tag name.
    #[error("expected a tag name first, as in `WhiteElo >= 2500`")]
    Name,
    /// No operator after the name.
    #[error("expected one of = != < <= > >= ~ after the tag name {0}")]
    Operator(String),
}

impl TagCondition {
    /// The condition `name op value`.
    pub fn new(name: &str, op: TagOp, value: &str) -> Result<TagCondition, TagConditionError> {
        if !is_tag_name(name) {
            return Err(TagConditionError::Name);
        }
        Ok(TagCondition { name: name.to_string(), op, value: value.to_string(), number: number(value) })
    }

    /// The tag it looks at.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the tags hold.
    pub fn matches(&self, tags: &Tags) -> bool {
        let Some(actual) = tags.get(&self.name) else { return self.op == TagOp::Ne };
        if self.op == TagOp::Glob {
            return glob_match(&self.value, actual);
        }
        let order = match (number(actual), self.number) {
            (Some(a), Some(b)) => a.partial_cmp(&b),
            _ => Some(actual.cmp(self.value.as_str())),
        };
        let Some(order) = order else { return false };
        match self.op {
            TagOp::Eq => order == Ordering::Equal,
            TagOp::Ne => order != Ordering::Equal,
            TagOp::Lt => order == Ordering::Less,
            TagOp::Le => order != Ordering::Greater,
            TagOp::Gt => order == Ordering::Greater,
            TagOp::Ge => order != Ordering::Less,
            TagOp::Glob => unreachable!("handled above"),
        }
    }
}

impl FromStr for TagCondition {
    type Err = TagConditionError;

    fn from_str(text: &str) -> Result<TagCondition, TagConditionError> {
        let text = text.trim_start();
        let end = text.find(|c: char| c.is_whitespace() || "!=<>~".contains(c)).unwrap_or(text.len());
        let (name, rest) = text.split_at(end);
        let rest = rest.trim_start();
        let (op_text, op) = TagOp::SPELLINGS
            .into_iter()
            .find(|(spelling, _)| rest.starts_with(spelling))
            .ok_or_else(|| TagConditionError::Operator(name.to_string()))?;
        let value = rest[op_text.len()..].trim_start();
        let value = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value);
        TagCondition::new(name, op, value)
    }
}

impl fmt::Display for TagCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.name, self.op.as_str(), self.value)
    }
}

/// `text` as a number: an optional sign, digits, and optionally a point and more digits. (Not
/// `f64`'s own reading, which takes `inf`, `NaN` and `1e3`: tag values like those are text.)
fn number(text: &str) -> Option<f64> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let well_formed = !whole.is_empty() && all_digits(whole) && all_digits(fraction) && !digits.ends_with('.');
    well_formed.then(|| text.parse().ok()).flatten()
}

/// Whether all of `text` matches `pattern`, where `*` stands for any text and `?` for any one
/// character; every other character stands for itself (case counts).
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (pattern, text): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut p, mut t) = (0, 0);
    // The last `*` seen and the text position it was tried at: a mismatch retries from there
    // with the star taking one more character (linear per star, no recursion).
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == '?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((star_p, star_t)) => {
                    star = Some((star_p, star_t + 1));
                    p = star_p + 1;
                    t = star_t + 1;
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(pairs: &[(&str, &str)]) -> Tags {
        let mut tags = Tags::new();
        for (name, value) in pairs {
            tags.insert(name, value);
        }
        tags
    }

    fn holds(condition: &str, pairs: &[(&str, &str)]) -> bool {
        condition.parse::<TagCondition>().unwrap().matches(&tags(pairs))
    }

    #[test]
    fn numbers_as_numbers_text_as_text() {
        assert!(holds("WhiteElo > 900", &[("WhiteElo", "2500")]));
        assert!(!holds("WhiteElo < 900", &[("WhiteElo", "2500")]));
        assert!(holds("WhiteElo = 2500.0", &[("WhiteElo", "2500")]));
        assert!(holds("Round >= -1", &[("Round", "0")]));
        // One side not a number: text, where "2500" < "900".
        assert!(holds("WhiteElo < 900x", &[("WhiteElo", "2500")]));
        assert!(holds("WhiteElo < 900", &[("WhiteElo", "?")]) == ("?" < "900"));
        assert!(holds("Round > 10", &[("Round", "9.1")]) == (9.1 > 10.0));
        assert!(holds("Round > 2", &[("Round", "10.1")]));
        // Not numbers here, so text.
        for not_a_number in ["inf", "NaN", "1e3", "1.", ".5", "", "-", "1.2.3", "0x10"] {
            assert_eq!(number(not_a_number), None, "{not_a_number}");
        }
        assert!(holds("Event < b", &[("Event", "a")]));
        assert!(holds("Date <= 2024.01.01", &[("Date", "2023.12.31")]));
    }

    #[test]
    fn missing_tags_match_only_not_equal() {
        for op in ["=", "<", "<=", ">", ">=", "~"] {
            assert!(!holds(&format!("WhiteElo {op} 2500"), &[("BlackElo", "2500")]), "{op}");
            assert!(!holds(&format!("WhiteElo {op} *"), &[]), "{op}");
        }
        assert!(holds("WhiteElo != 2500", &[]));
        assert!(!holds("WhiteElo != 2500", &[("WhiteElo", "2500")]));
        assert!(holds("WhiteElo != 2500", &[("WhiteElo", "2501")]));
        // Present but empty is not missing.
        assert!(holds("Annotator = \"\"", &[("Annotator", "")]));
    }

    #[test]
    fn parsing() {
        let c: TagCondition = "White=Carlsen, Magnus".parse().unwrap();
        assert_eq!((c.name(), c.op, c.value.as_str()), ("White", TagOp::Eq, "Carlsen, Magnus"));
        let c: TagCondition = "  Black   !=   \"Kasparov, G\"".parse().unwrap();
        assert_eq!((c.op, c.value.as_str()), (TagOp::Ne, "Kasparov, G"));
        assert_eq!("WhiteElo<=2000".parse::<TagCondition>().unwrap().op, TagOp::Le);
        assert_eq!("WhiteElo >=2000".parse::<TagCondition>().unwrap().to_string(), "WhiteElo >= 2000");
        assert_eq!("Event ~ *open*".parse::<TagCondition>().unwrap().op, TagOp::Glob);
        assert_eq!("WhiteElo 2500".parse::<TagCondition>(), Err(TagConditionError::Operator("WhiteElo".into())));
        assert_eq!("= 2500".parse::<TagCondition>(), Err(TagConditionError::Name));
        assert_eq!("White Elo = 2500".parse::<TagCondition>(), Err(TagConditionError::Operator("White".into())));
        assert_eq!("Wh[ite = x".parse::<TagCondition>(), Err(TagConditionError::Name));
        assert!("".parse::<TagCondition>().is_err());
    }

    #[test]
    fn globs() {
        for (pattern, text, expected) in [
            ("Carlsen*", "Carlsen, Magnus", true),
            ("*Magnus", "Carlsen, Magnus", true),
            ("*sen, M*", "Carlsen, Magnus", true),
            ("carlsen*", "Carlsen, Magnus", false),
            ("?", "é", true),
            ("??", "é", false),
            ("a*b*c", "aXbYbZc", true),
            ("a*b*c", "aXbYbZ", false),
            ("*", "", true),
            ("", "", true),
            ("", "x", false),
            ("x", "", false),
            ("a?c", "abc", true),
            ("*a*a*a*a*a*b", &"a".repeat(200), false),
        ] {
            assert_eq!(glob_match(pattern, text), expected, "{pattern} on {text}");
        }
        assert!(holds("Event ~ Tata Steel*", &[("Event", "Tata Steel Masters")]));
        assert!(!holds("Event ~ Tata", &[("Event", "Tata Steel Masters")]));
    }
}
