import bcrypt from "bcryptjs";

const COST = 11;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

// Compared against when the email is unknown, so both paths take the same time.
const DUMMY_HASH = "$2b$11$C6UzMDM.H6dfI/f/IKcEe.4WQ3vDw1sQn6wRh3O3tYQh8v1J9b9xK";
export async function verifyAgainstNothing(password: string): Promise<false> {
  await bcrypt.compare(password, DUMMY_HASH);
  return false;
}
