//! Counts words.

pub fn count_words(text: &str) -> usize {
    text.split_whitespace().count()
}

pub fn longest(text: &str) -> Option<&str> {
    text.split_whitespace().max_by_key(|w| w.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(count_words("a b  c"), 3);
    }

    #[test]
    fn finds_longest() {
        assert_eq!(longest("a bbb cc"), Some("bbb"));
    }
}
