/** An expected refusal whose message is safe and useful to show to the user as it is. */
export class UserFacingError extends Error {
  constructor(
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "UserFacingError";
  }
}
