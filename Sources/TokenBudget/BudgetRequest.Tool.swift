extension BudgetRequest {
    /// A tool's definition as the model sees it: its name, description and parameter schema,
    /// each as the text rendered into the prompt.
    ///
    /// Description and schema are counted separately because they are tuned separately: a
    /// guide shortens the description, a compact format shrinks the schema.
    public struct Tool: Sendable, Hashable {
        /// The tool's name on the wire (`spotlight_search`). Labels the tool's rows; its own few
        /// tokens belong to the definition's wrapper, i.e. the template overhead.
        public var name: String
        /// The description text as rendered into the prompt.
        public var description: String
        /// The parameter schema as rendered into the prompt; empty when the tool's schema is
        /// left out of the instructions (Apple's `includesSchemaInInstructions == false`).
        public var schema: String

        public init(name: String, description: String, schema: String) {
            self.name = name
            self.description = description
            self.schema = schema
        }
    }
}
