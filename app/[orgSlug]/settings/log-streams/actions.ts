"use server";

import { orgAction } from "@/lib/action";
import { createLogStreamInput, logStreamInput, setLogStreamPausedInput } from "@/lib/log-streams/input";
import { addStream, pauseOrResumeStream, removeStream, sendStreamTestEvent } from "@/lib/log-streams/stream-changes";

// Each log stream change as the page calls it: its input, who may, sudo mode where the organization's data starts leaving for a new place or stops, and the rule in lib/log-streams/stream-changes.ts.
export const createLogStreamAction = orgAction(createLogStreamInput, "log_streams.manage", addStream, { sudo: true });
export const setLogStreamPausedAction = orgAction(setLogStreamPausedInput, "log_streams.manage", pauseOrResumeStream);
export const deleteLogStreamAction = orgAction(logStreamInput, "log_streams.manage", removeStream, { sudo: true });
export const sendLogStreamTestEventAction = orgAction(logStreamInput, "log_streams.manage", sendStreamTestEvent);
