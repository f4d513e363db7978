/// The body of `GET /v1/models` (`object: "list"`), and of `GET /v1/models/{id}` as its one
/// entry: the one model this server answers with.
struct ModelList: Encodable, Sendable {
    struct Model: Encodable, Sendable {
        let id: String
        let object = "model"
        /// When the server started, in seconds since 1970 (OpenAI's `created`).
        let created: Int
        let ownedBy = "lantern"

        private enum CodingKeys: String, CodingKey { case id, object, created, ownedBy = "owned_by" }
    }

    let object = "list"
    let data: [Model]
}
