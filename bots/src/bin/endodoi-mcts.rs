//! The bundled mcts bot as a standalone executable: `endodoi-mcts [OPTIONS]` (`--help` lists them).

fn main() {
    std::process::exit(endodoi_bots::standalone_main("mcts"));
}
