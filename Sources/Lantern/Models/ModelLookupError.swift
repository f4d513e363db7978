/// Why no model file was found, worded for the person at the terminal: where the lookup looked
/// and how to get the model (a runtime error: exit 1 in `ask`, 2 as a setup error in `eval`).
package struct ModelLookupError: Error, Sendable, CustomStringConvertible {
    package let message: String

    init(_ message: String) { self.message = message }

    package var description: String { message }
}
