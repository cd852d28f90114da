//! Prints perft counts: `cargo run --release -p endodoi --example perft -- HOLES SEEDS DEPTH`.
fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let [holes, seeds, depth] = args[..] else {
        panic!("usage: perft HOLES SEEDS DEPTH")
    };
    let start = endodoi::Rules::new(holes as usize, seeds)
        .expect("valid rules")
        .start();
    for d in 0..=depth {
        let t = std::time::Instant::now();
        let n = endodoi::perft(&start, d);
        println!("{holes},{seeds},{d},{n}  # {:?}", t.elapsed());
    }
}
