/// Options declared together in their own `ParsableArguments` struct, taken whole by each command
/// that has them (`@OptionGroup var guide: GuideOptions`), with the group's methods beside them.
@propertyWrapper
package struct OptionGroup<Group: ParsableArguments>: Sendable, DeclaresArguments {
    package let wrappedValue: Group

    package init() {
        wrappedValue = Group()
    }

    var declarations: [ArgumentDeclaration] { wrappedValue.declarations }
    var failures: [UsageError] { wrappedValue.failures }
}
