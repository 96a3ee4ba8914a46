import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth";
import { onRequestOrigin } from "@/lib/auth/request-origin";

export const GET = (request: NextRequest) => handlers.GET(onRequestOrigin(request));
export const POST = (request: NextRequest) => handlers.POST(onRequestOrigin(request));
