use wordcount::count_words;

fn main() {
    let text = "the quick brown fox";
    println!("{} words", count_words(text));
}
