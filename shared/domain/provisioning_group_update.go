package domain

// DeliverGroupUpdate makes the role's group at the SP match the role: the
// group is created when missing, every current member is created at the SP
// when missing, and the group is replaced with the role's name and members.
// It is sent when a role is renamed (to every SP of the role) and when an
// application is added to a role (to the SPs new to the role).
const DeliverGroupUpdate DeliveryKind = "group.update"
