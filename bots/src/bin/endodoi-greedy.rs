//! The bundled greedy bot as a standalone executable: `endodoi-greedy [--seed N]`.

fn main() {
    std::process::exit(endodoi_bots::standalone_main("greedy"));
}
