import Testing
@testable import TokenBudget

@Suite struct NumberTextTests {
    @Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (4096, "4,096"), (1_234_567, "1,234,567"),
                      (-2062, "-2,062"), (-999, "-999")])
    func groupsThousands(value: Int, text: String) {
        #expect(NumberText.grouped(value) == text)
    }

    @Test(arguments: [(0.0, 0, "0%"), (1.245, 0, "125%"), (0.146, 1, "14.6%"), (0.1, 1, "10.0%"),
                      (12.3456, 1, "1,234.6%")])
    func formatsPercentages(share: Double, decimals: Int, text: String) {
        #expect(NumberText.percent(share, decimals: decimals) == text)
    }
}
