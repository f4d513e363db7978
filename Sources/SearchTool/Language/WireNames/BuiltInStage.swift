/// The built-in pipeline stages, named as the model writes them in `{"stage": …}`. The schema
/// offers the ones a guide allows (`QueryCapabilities.stageKinds`), the request reader
/// recognises them by these names before it looks among the app's stages, and the pipeline
/// states what each one accepts (`SearchRequest.Stage.acceptedInputs`).
package enum BuiltInStage: String, Sendable, CaseIterable, CustomStringConvertible {
    case count, groupBy, statistic, table, score

    package var description: String { rawValue }
}
