/** A message between two users about a listing. No foreign key to the listing: it outlives it. */
export interface Message {
  id: string;
  listingId: string;
  senderId: string;
  receiverId: string;
  content: string;
  isAgent: boolean;
  createdAt: Date;
}

export type MessageDirection = "received" | "sent";
