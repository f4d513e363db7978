extension Duration {
    /// The duration in seconds, as a Double: how reports and `--json` give timings.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
